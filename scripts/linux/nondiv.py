#!/usr/bin/env python3
"""nondiv.py [HZ...] -- how far stock's nominal 1/HZ conversions are from
the tick Linux really makes (TICK_NSEC = round(1e9 / HZ) ns), which the
series' conversions use. For each HZ: the tick, the real rate, and per
conversion the share of inputs in 0..N where the two differ, the first
such input and the largest difference. Exact rational arithmetic."""
import sys
from fractions import Fraction as F
from math import ceil, floor

def tick(hz):
    return (10**9 + hz // 2) // hz

def convs(hz):
    t = tick(hz)
    # (name, N, nominal, real): one jiffy is 1/HZ s nominally, t ns really
    return [
        ("msecs_to_jiffies", 10**6, lambda m: ceil(F(m * hz, 1000)), lambda m: ceil(F(m * 10**6, t))),
        ("usecs_to_jiffies", 10**6, lambda u: ceil(F(u * hz, 10**6)), lambda u: ceil(F(u * 1000, t))),
        ("jiffies_to_msecs", 10**6, lambda j: ceil(F(j * 1000, hz)), lambda j: ceil(F(j * t, 10**6))),
        ("jiffies_to_usecs", 10**6, lambda j: floor(F(j * 10**6, hz)), lambda j: floor(F(j * t, 1000))),
        ("nsecs_to_jiffies", 10**6, lambda n: floor(F(n * 1000 * hz, 10**9)), lambda n: floor(F(n * 1000, t))),
    ]

def main():
    hzs = [int(a) for a in sys.argv[1:]] or [24, 97, 300, 333, 1024, 4321, 10000]
    for hz in hzs:
        t = tick(hz)
        rate = F(10**9, t)
        ppm = float((rate - hz) / hz * 10**6)
        print(f"HZ={hz}: tick {t} ns (1/HZ = {10**9 / hz:.3f} ns), real rate {float(rate):.6f} Hz, {ppm:+.3f} ppm")
        if 10**9 % hz == 0:
            print("  HZ divides a second: every conversion equals stock's")
            continue
        for name, n, nom, real in convs(hz):
            diff, first, worst = 0, None, 0
            step = 1 if name != "nsecs_to_jiffies" else 997  # ns inputs: sample
            for x in range(0, n * step, step):
                a, b = nom(x), real(x)
                if a != b:
                    diff += 1
                    first = x if first is None else first
                    worst = max(worst, abs(a - b))
            unit = "ns" if name == "nsecs_to_jiffies" else ""
            print(f"  {name}: differs for {diff} of {n} inputs ({100 * diff / n:.2f} %)"
                  + (f", first at {first}{unit}, by at most {worst}" if diff else ""))

main()
