"""PointNet++ (ASPLOS'23 §8 case study): the stage programs against their numpy
references under every configuration, the references against brute-force
loops, and the study's rows and REPRODUCTION.md section (small sizes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs.tools import bench_pointnet as bp
from infs.workloads import pointnet as pn

CONFIGS = bp.STUDY_CONFIGS  # Base, Near-L3, In-L3, Inf-S
MACHINE = "small-16"


def _calls(net=pn.SMALL_SSG, seed=0):
    return pn.network_calls(net, seed)


def _first(calls, kind, pred=lambda c: True):
    return next(c for c in calls if c.kind == kind and pred(c))


def _call_like(call, **changes):
    """A copy of a stage call with some arguments and expectations replaced."""
    return pn.StageCall(call.net, call.level, call.sa, call.kind, {**call.args, **changes.pop("args", {})}, changes.pop("expected", call.expected), call.tol)


# ---------------------------------------------------------------------------
# references vs brute force (independent, one point at a time)
# ---------------------------------------------------------------------------


def _fps_brute(x, k):
    chosen = [0]
    for _ in range(1, k):
        best, best_d = -1, -1.0
        for i in range(x.shape[0]):
            d = min(float(np.sum((x[i].astype(np.float64) - x[j]) ** 2)) for j in chosen)
            if d > best_d:
                best, best_d = i, d
        chosen.append(best)
    return chosen


def _ball_brute(x, c, r, n):
    out = []
    for q in c:
        hits = [i for i in range(x.shape[0]) if float(np.sum((x[i].astype(np.float64) - q) ** 2)) < r * r][:n]
        first = hits[0] if hits else 0
        out.append(hits + [first] * (n - len(hits)))
    return np.array(out)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fps_reference_is_furthest_point(seed):
    x = pn.points(40, np.random.default_rng(seed))
    cidx, cen = pn.fps_ref(x, 9)
    assert list(cidx) == _fps_brute(x, 9)
    assert len(set(cidx.tolist())) == 9 and cidx[0] == 0
    np.testing.assert_array_equal(cen, x[cidx])


@pytest.mark.parametrize("seed,r,n", [(0, 0.3, 6), (1, 0.15, 8), (2, 0.5, 4), (3, 0.05, 5)])
def test_ball_query_reference(seed, r, n):
    rng = np.random.default_rng(seed)
    x = pn.points(50, rng)
    c = np.concatenate([x[:6], np.full((1, 3), 5.0, np.float32)])  # the last centroid has no neighbour at all
    idx = pn.ball_query_ref(x, c, r, n)
    np.testing.assert_array_equal(idx, _ball_brute(x, c, r, n))
    assert (idx[-1] == 0).all()


def test_gather_mlp_aggregate_references():
    rng = np.random.default_rng(4)
    x, f = pn.points(10, rng), rng.random((10, 2), dtype=np.float32)
    c = x[[1, 3]]
    idx = np.array([[1, 2, 2], [3, 0, 3]], np.int32)
    g = pn.gather_ref(x, f, c, idx)
    for k in range(2):
        for j in range(3):
            np.testing.assert_array_equal(g[k, j], np.concatenate([x[idx[k, j]] - c[k], f[idx[k, j]]]))
    layers = [(rng.random((5, 4), dtype=np.float32) - 0.5, rng.random(4, dtype=np.float32) - 0.5),
              (rng.random((4, 3), dtype=np.float32) - 0.5, rng.random(3, dtype=np.float32) - 0.5)]  # fmt: skip
    h1, y = pn.mlp_ref(g, layers, relu_last=False)
    for k in range(2):
        for j in range(3):
            a = np.maximum(g[k, j] @ layers[0][0] + layers[0][1], 0)
            np.testing.assert_allclose(h1[k, j], a, rtol=1e-6)
            np.testing.assert_allclose(y[k, j], a @ layers[1][0] + layers[1][1], rtol=1e-5, atol=1e-6)
    assert (y < 0).any()  # the last FC layer has no ReLU
    np.testing.assert_array_equal(pn.aggregate_ref(y), np.array([[max(y[k, j, o] for j in range(3)) for o in range(3)] for k in range(2)]))


def test_networks_follow_table4():
    assert [[s.name for s in lv] for lv in pn.SSG.levels] == [["SA1"], ["SA2"], ["SA3"]]
    assert [[s.name for s in lv] for lv in pn.MSG.levels] == [["SA4", "SA5", "SA6"], ["SA7", "SA8", "SA9"], ["SA3"]]
    assert pn.SSG.levels[0][0] == pn.SA("SA1", 512, 32, 0.2, (64, 64, 128))
    assert pn.MSG.levels[1][2] == pn.SA("SA9", 128, 128, 0.8, (128, 128, 256))
    assert pn.SSG.fc == (512, 256, 10) and pn.SSG.points == 4096
    calls = _calls(pn.SMALL_MSG)
    # MSG: one sampling per level, shared by its three scales; the scales' outputs concatenated
    assert [c.sa for c in calls if c.kind == "sample"] == ["SA4+SA5+SA6", "SA7+SA8+SA9"]
    agg = [c for c in calls if c.kind == "aggregate" and c.level == 0]
    assert [c.args["off"] for c in agg] == [0, 8, 24]
    # the next level's gather reads the concatenated features
    g = _first(calls, "gather", lambda c: c.level == 1)
    np.testing.assert_array_equal(g.args["F"], agg[-1].expected["O"])
    fc = calls[-1]
    assert fc.sa == "FC" and fc.args["relu3"] == 0 and fc.expected["Y"].shape == (1, 1, 10)


# ---------------------------------------------------------------------------
# the programs vs the references, every configuration
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("kind", pn.STAGES)
def test_stage_program_matches_reference(kind, config):
    call = _first(_calls(), kind)
    row = bp.run_call(call, config, MACHINE, functional=True)
    assert row["check"] == "match", row
    assert row["cycles"] > 0 and row["regions"] > 0


@pytest.mark.parametrize("config", ["in", "infs"])
def test_msg_aggregate_writes_its_columns_only(config):
    call = _first(_calls(pn.SMALL_MSG), "aggregate", lambda c: c.args["off"] > 0)
    before = call.args["O"]
    assert np.any(before[:, : call.args["off"]] != 0)  # the earlier scale's columns are there and must stay
    assert bp.run_call(call, config, MACHINE, functional=True)["check"] == "match"


@pytest.mark.parametrize("config", CONFIGS)
def test_ball_query_fewer_than_n_neighbours(config):
    base = _first(_calls(), "ball_query")
    x, c, n = base.args["X"], base.args["C"].copy(), 6
    c[-1] = [3.0, 3.0, 3.0]  # outside the cloud: no neighbour, index 0 everywhere
    r = 0.12
    idx = pn.ball_query_ref(x, c, r, n)
    found = (pn._sqdist(x[None], c[:, None]) < np.float32(r) * np.float32(r)).sum(1)
    assert (found[:-1] < n).any() and (found[:-1] >= 1).all() and found[-1] == 0
    k, p = c.shape[0], x.shape[0]
    call = _call_like(base, args={"C": c, "R": np.array([np.float32(r) * np.float32(r)], np.float32), "n": n,
                                  "sel": np.zeros((k, n + 1), np.int32), "idx": np.zeros((k, n), np.int32), "key": np.zeros((k, p), np.int32)},
                      expected={"idx": idx})  # fmt: skip
    assert bp.run_call(call, config, MACHINE, functional=True)["check"] == "match"


@pytest.mark.parametrize("seed,p,k", [(1, 48, 5), (2, 80, 12), (3, 33, 33)])
def test_fps_seeds_and_sizes(seed, p, k):
    x = pn.points(p, np.random.default_rng(seed))
    cidx, cen = pn.fps_ref(x, k)
    call = pn.StageCall("ssg", 0, "SA1", "sample", {"X": x, "dist": np.zeros(p, np.float32), "cidx": np.zeros(k, np.int32),
                                                    "C": np.zeros((k, 3), np.float32), "p": p, "k": k}, {"cidx": cidx, "C": cen})  # fmt: skip
    for config in ("in", "infs"):
        assert bp.run_call(call, config, MACHINE)["check"] == "match"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.integers(2, 40), k=st.integers(1, 6), n=st.integers(1, 9), r=st.sampled_from([0.05, 0.2, 0.6, 2.0]),
       config=st.sampled_from(["base", "near", "infs"]), seed=st.integers(0, 5))  # fmt: skip
def test_ball_query_property(p, k, n, r, config, seed):
    """Any cloud, centroids (some off the cloud), radius and N: the program picks what the reference picks."""
    rng = np.random.default_rng(seed)
    x = pn.points(p, rng)
    c = np.where(rng.random((k, 1)) < 0.5, x[rng.integers(0, p, k)], rng.random((k, 3), dtype=np.float32) * np.float32(1.5)).astype(np.float32)
    call = pn.StageCall("ssg", 0, "SA1", "ball_query",
                        {"X": x, "C": c, "R": np.array([np.float32(r) * np.float32(r)], np.float32), "iota": np.arange(p, dtype=np.int32),
                         "key": np.zeros((k, p), np.int32), "sel": np.zeros((k, n + 1), np.int32), "idx": np.zeros((k, n), np.int32),
                         "p": p, "k": k, "n": n},
                        {"idx": pn.ball_query_ref(x, c, r, n)})  # fmt: skip
    assert bp.run_call(call, config, MACHINE, functional=True)["check"] == "match"


@pytest.mark.parametrize("seed", [1, 2])
def test_other_seeds_mlp_and_gather(seed):
    calls = _calls(pn.SMALL_SSG, seed)
    for call in (_first(calls, "gather", lambda c: c.level == 1), _first(calls, "mlp", lambda c: c.level == 1)):
        assert bp.run_call(call, "infs", MACHINE, functional=True)["check"] == "match"


def test_a_wrong_output_is_reported():
    call = _first(_calls(), "aggregate")
    bad = _call_like(call, expected={"O": call.expected["O"] + np.float32(1)})
    assert bp.run_call(bad, "base", MACHINE, functional=True)["check"] == "MISMATCH"


# ---------------------------------------------------------------------------
# the study
# ---------------------------------------------------------------------------


def _rows():
    return bp.study("small", ("ssg",), ("base", "near"), machine=MACHINE)


def test_study_rows_and_section(tmp_path):
    rows = _rows()
    calls = _calls()
    assert len(rows) == 2 * len(calls)
    assert {r["stage"] for r in rows} == {c.label for c in calls}
    for r in rows:
        assert r["cycles"] > 0
        assert sum(r[f"cyc_{m}"] for m in ("in", "near", "core")) > 0
        assert r["machine_mode"] == ("functional" if r["kind"] == "sample" else "analysis")
    assert all(r["cyc_near"] == 0 and r["cyc_in"] == 0 for r in rows if r["config"] == "base")
    assert all(r["cyc_core"] == 0 and r["cyc_in"] == 0 for r in rows if r["config"] == "near")
    s = bp.summary(rows)["ssg"]
    assert s["total"]["base"] == sum(r["cycles"] for r in rows if r["config"] == "base")
    assert s["ours"]["ssg_near_over_base"] == pytest.approx(s["total"]["base"] / s["total"]["near"])
    share = sum(r["cycles"] for r in rows if r["config"] == "base" and r["kind"] == "sample") / s["total"]["base"]
    assert s["ours"]["ssg_sample_share_base"] == pytest.approx(share)
    md = "\n".join(bp.markdown(rows))
    assert "| SSG: Near-L3 over Base | 1.31x |" in md and "| SSG: furthest sample's share of Base | 46% |" in md
    assert "| SA1 ball query |" in md and "(cores)" in md and "(near memory)" in md and "**MSG**" not in md
    # infs-bench's hook: the section appended, and again from pointnet.csv without runs (--replot)
    repro = tmp_path / "REPRODUCTION.md"
    repro.write_text("# head\n")
    bp.write_csv(tmp_path / "pointnet.csv", rows)
    again = bp.append_reproduction(repro, tmp_path, None)
    assert len(again) == len(rows)
    text = repro.read_text()
    assert text.startswith("# head\n") and "## PointNet++" in text and f"{s['total']['base']:,}" in text
    assert "![Fig. 19" in text and (tmp_path / "figures" / "fig19_pointnet.png").stat().st_size > 1000


def test_configs_are_infs_bench_configs():
    from infs.tools.infs_bench import CONFIGS as BENCH

    assert bp.CONFIGS == {c: BENCH[c] for c in ("base", "near", "in", "infs")}
    assert [v[:2] for v in bp.CONFIGS.values()] == [("Base", "core"), ("Near-L3", "near"), ("In-L3", "in"), ("Inf-S", "auto")]


def test_where_names_the_mix():
    row = {"cyc_in": 70, "cyc_near": 30, "cyc_core": 0}
    assert bp.where(row) == "in memory 70%, near memory 30%"
    assert bp.where({"cyc_in": 0, "cyc_near": 0, "cyc_core": 5}) == "cores"
    assert bp.where({"cyc_in": 0, "cyc_near": 0, "cyc_core": 0}) == "-"


def test_cli_bad_arguments(capsys):
    assert bp.main(["--nets", "pointnet3"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["bench_pointnet: error: unknown network 'pointnet3' (known: ssg, msg)"]
    assert bp.main(["--configs", "gpu"]) == 2
    assert "unknown config 'gpu'" in capsys.readouterr().err


def test_fps_rejects_more_centroids_than_points():
    with pytest.raises(ValueError, match="furthest point sampling of 5 centroids from 4 points"):
        pn.fps_ref(pn.points(4, np.random.default_rng(0)), 5)


def test_a_failing_run_is_a_row(monkeypatch):
    real = bp.run_call

    def flaky(call, config, *a, **k):
        if call.kind == "gather" and call.sa == "SA2" and config == "near":
            raise RuntimeError("the machine broke\nsecond line")
        return real(call, config, *a, **k)

    monkeypatch.setattr(bp, "run_call", flaky)
    rows = bp.study("small", ("ssg",), ("base", "near"), machine=MACHINE)
    bad = [r for r in rows if "error" in r]
    assert [(r["stage"], r["config"], r["error"]) for r in bad] == [("SA2 gather", "near", "RuntimeError: the machine broke")]
    s = bp.summary(rows)["ssg"]
    assert "near" not in s["total"] and "near" not in s["kind"]["gather"] and "near" in s["kind"]["mlp"]
    md = "\n".join(bp.markdown(rows))
    assert "| SA2 gather |" in md and "FAILED" in md and "incomplete" in md
    assert "- SSG SA2 gather, Near-L3: RuntimeError: the machine broke" in md
    assert "| SSG: Near-L3 over Base | 1.31x | - | - |" in md


def test_infs_bench_has_the_hook(capsys):
    from infs.tools import infs_bench

    with pytest.raises(SystemExit):
        infs_bench.main(["--help"])
    assert "--pointnet" in capsys.readouterr().out
