// STREAM Fig. 5's kind of netlist: OR-Inverter nodes (xbar.or) over three inputs;
// %g (level 3) reads %e and %h (level 1), so the staircase carries them on dummies.
hw.module @fig5(in %a: i1, in %b: i1, in %c: i1, out y: i1) {
  %d = xbar.or inverted (%a, not %b)
  %e = xbar.or (%b, %c)
  %f = xbar.or (%d, %e)
  %h = xbar.or inverted (%c)
  %g = xbar.or inverted (%f, %h, %e)
  hw.output %g : i1
}
