"""The period of a pendulum against its amplitude, simulated and in closed form.

A bob on a rigid rod of length L, released from rest at angle θ0, swings with period

    T(θ0) = 4 sqrt(L / g) K(sin(θ0 / 2)),

K the complete elliptic integral of the first kind: 2π sqrt(L/g) for small swings, growing
without bound toward θ0 = 180°. Each amplitude is simulated with Witkin's method (RK4, CG), and
the half period is read off where the angular velocity next changes sign.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/pendulum_period.py -o period.png
"""

import argparse
import math
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import tinkertoy  # noqa: E402

SCENE = pathlib.Path(__file__).resolve().parents[2] / "scenes" / "pendulum.json"
LENGTH, GRAVITY = 1.0, 9.81


def elliptic_k(k):
    """K(k) by the arithmetic-geometric mean: π / (2 AGM(1, sqrt(1 − k²)))."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(40):  # quadratic convergence: a handful of rounds reach round-off
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def closed_form_period(amplitude):
    return 4 * math.sqrt(LENGTH / GRAVITY) * elliptic_k(math.sin(amplitude / 2))


def simulated_period(amplitude):
    scene = tinkertoy.load_scene(SCENE)
    bob = scene.model.find_body("bob")
    scene.model.set_position(bob, [LENGTH * math.sin(amplitude), -LENGTH * math.cos(amplitude)])
    sim = tinkertoy.Simulator(scene)
    trajectory = sim.run(closed_form_period(amplitude) * 0.75)
    x, y = trajectory["q"][:, 0], trajectory["q"][:, 1]
    vx, vy = trajectory["v"][:, 0], trajectory["v"][:, 1]
    omega = (x * vy - y * vx) / (x * x + y * y)
    # The first sign change after the release (ω starts at 0), interpolated within its step.
    crossing = np.nonzero(np.sign(omega[2:]) != np.sign(omega[1:-1]))[0][0] + 1
    t, w = trajectory["time"], omega
    half = t[crossing] - w[crossing] * (t[crossing + 1] - t[crossing]) / (w[crossing + 1] - w[crossing])
    return 2 * half


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", default="pendulum_period.png", help="the plot (PNG)")
    args = parser.parse_args()

    amplitudes = np.radians([5, 20, 40, 60, 80, 100, 120, 140, 160, 170])
    simulated = np.array([simulated_period(a) for a in amplitudes])
    exact = np.array([closed_form_period(a) for a in amplitudes])
    error = np.abs(simulated - exact) / exact
    for a, s, e, r in zip(np.degrees(amplitudes), simulated, exact, error):
        print(f"amplitude {a:5.1f} deg: simulated {s:.7f} s, closed form {e:.7f} s, relative error {r:.1e}")
    print(f"largest relative error: {error.max():.1e}")

    fine = np.radians(np.linspace(1, 175, 200))
    plt.figure(figsize=(6, 4))
    plt.plot(np.degrees(fine), [closed_form_period(a) for a in fine], label="closed form 4√(L/g) K(sin θ₀/2)")
    plt.plot(np.degrees(amplitudes), simulated, "o", label="Tinkertoy (RK4, h = 1 ms)")
    plt.xlabel("amplitude θ₀ (degrees)")
    plt.ylabel("period (s)")
    plt.title("Pendulum period against amplitude")
    plt.legend()
    plt.tight_layout()
    plt.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    # RK4's error at h = 1 ms and the interpolated crossing stay near 1e-10.
    if error.max() > 1e-8:
        raise SystemExit(f"the simulated periods are off by up to {error.max():.1e} (more than 1e-8)")


if __name__ == "__main__":
    main()
