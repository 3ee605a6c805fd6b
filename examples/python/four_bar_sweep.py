"""Coupler curves of a four-bar linkage, swept over its rocker's length on Dask.

A crank-rocker (crank a, coupler b, rocker c, ground d): a motor turns the crank once in 2 s and
a point fixed above the middle of the coupler traces a closed coupler curve. Each rocker length
is one case of tinkertoy.sweep, which builds the linkage in its initial pose (edit=build_linkage),
runs it on a LocalCluster of two worker processes, and returns the trajectories.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/four_bar_sweep.py -o coupler.png
"""

import argparse
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import tinkertoy  # noqa: E402

CRANK, COUPLER, GROUND = 0.6, 2.2, 2.0
START = math.radians(60)  # the crank's initial angle
TRACER = (0.0, 0.5)  # the coupler point, in the coupler's frame

TEMPLATE = {
    "dimension": 2,
    "gravity": [0, -9.81],
    "settings": {"dt": 1 / 60, "formulation": "velocity", "solver": "sequential", "iterations": 10,
                 "substeps": 4, "position_correction": "projection", "duration": 2},
}


def rigid(name, a, b):
    """A bar from point a to point b: its center, angle and box."""
    center, along = (a + b) / 2, b - a
    length = float(np.linalg.norm(along))
    return {"id": name, "type": "rigid", "mass": 0.8 * length, "position": center.tolist(),
            "angle": math.atan2(along[1], along[0]), "shape": {"type": "box", "size": [length, 0.08]}}


def build_linkage(document, row):
    """The four-bar with rocker length row["rocker"], in its pose at the crank angle START."""
    rocker = row["rocker"]
    o2, o4 = np.zeros(2), np.array([GROUND, 0.0])
    a = CRANK * np.array([math.cos(START), math.sin(START)])
    # B: where the coupler's circle about A meets the rocker's about O4 (the upper branch).
    span = o4 - a
    distance = float(np.linalg.norm(span))
    along = (COUPLER**2 - rocker**2 + distance**2) / (2 * distance)
    height = math.sqrt(COUPLER**2 - along**2)
    unit = span / distance
    b = a + along * unit + height * np.array([-unit[1], unit[0]])
    document["bodies"] = [rigid("crank", o2, a), rigid("coupler", a, b), rigid("rocker", o4, b)]
    document["constraints"] = [
        {"type": "revolute", "a": "crank", "b": None, "anchor": o2.tolist(), "motor_speed": math.pi,
         "max_motor_force": 50},
        {"type": "revolute", "a": "crank", "b": "coupler", "anchor": a.tolist()},
        {"type": "revolute", "a": "coupler", "b": "rocker", "anchor": b.tolist()},
        {"type": "revolute", "a": "rocker", "b": None, "anchor": o4.tolist()},
    ]
    return document


def tracer_path(q):
    """The coupler point's world path from the recorded q (the coupler is body 1: x, y, φ)."""
    x, y, phi = q[:, 3], q[:, 4], q[:, 5]
    return (x + np.cos(phi) * TRACER[0] - np.sin(phi) * TRACER[1],
            y + np.sin(phi) * TRACER[0] + np.cos(phi) * TRACER[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", default="four_bar_sweep.png", help="the plot (PNG)")
    parser.add_argument("--scheduler", default=None, help='a Dask scheduler address, or "serial"')
    args = parser.parse_args()

    rockers = [1.3, 1.5, 1.7, 1.9]
    table = tinkertoy.sweep(TEMPLATE, {"rocker": rockers}, edit=build_linkage, scheduler=args.scheduler, workers=2)
    failed = [f"rocker {r}: {e}" for r, e in zip(rockers, table["error"]) if e]
    if failed:
        raise SystemExit("cases failed:\n" + "\n".join(failed))

    plt.figure(figsize=(6, 4.5))
    for rocker, q, error in zip(rockers, table["q"], table["constraint_error"]):
        x, y = tracer_path(q)
        plt.plot(x, y, label=f"rocker {rocker} m")
        print(f"rocker {rocker} m: {len(q) - 1} steps, largest ‖C‖∞ {error:.1e}")
    plt.plot([0, GROUND], [0, 0], "k^", markersize=10, label="ground pivots")
    plt.axis("equal")
    plt.xlabel("x (m)")
    plt.ylabel("y (m)")
    plt.title("Four-bar coupler curves (one crank turn each)")
    plt.legend(fontsize=8)
    plt.tight_layout()
    plt.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
