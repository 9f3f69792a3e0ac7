"""The dependent steps of pointer-chasing streams, for the near-memory and core models.

Takes a ``RegionProfile`` (its chase field streams: ``StreamProfile.chase_depth``),
the threads the region runs on and the cycles of one step; gives the
``chase`` term, in cycles, that both models add to their bounds (``{}`` when
the region chases no pointer).

A pointer chase's next address is the element its step loaded (NSC HPCA'22
§II-A, Fig. 2(d): ``P = P->next``), so the steps of one chain run one after
another, each one access; a thread's chains run one after another too (near
memory, a pointer-chasing stream follows one chain at a time, migrating among
the L3 banks along it, NSC §IV "Pointer-Chasing Stream"; on a core, each step
is a load whose address waits for the previous one), and the threads' chains
run in parallel.  So the term is ``max(longest chain, all steps / threads) x
step``.  The step is the caller's: near memory one L3 access at the node's
bank and the stream's migration to the next node's bank; on a core a load's
round trip from its L2 miss to the bank and back.  A region's chases are
priced by the longest of them (the fields of one chase are loaded together
at each step, so each field stream carries the chase's whole count).
"""

from __future__ import annotations

from infs.sim.workload_profile import RegionProfile


def chase_terms(profile: RegionProfile, threads: int, step_cycles: float) -> dict[str, float]:
    """``{"chase": cycles}`` of the region's pointer chases (module docstring), or ``{}``."""
    chases = [s for s in profile.streams if s.chase_depth]
    if not chases:
        return {}
    steps = max(max(float(s.chase_depth), s.accesses / max(1, threads)) for s in chases)
    return {"chase": steps * float(step_cycles)}
