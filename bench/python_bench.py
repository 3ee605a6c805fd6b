"""What Python costs: the double pendulum stepped from Python against the same loop in C++, and a
200-case four-bar sweep on a LocalCluster of 2 workers against the same sweep run serially.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py [--bench build/release/tinkertoy-bench]
                                                                           [--instructions] [--skip-sweep]

Step overhead (CPU time, median of 3; scenes/double_pendulum.json with its settings: RK4, CG, 1 ms):
    C++           tinkertoy-bench --benchmark_filter=scene_step/double_pendulum (one step per iteration)
    step()        sim.step() called 20 000 times from a Python loop
    run(every=1)  sim.run(20 s): the loop in C++, every step recorded into NumPy arrays
    run(every=100)

Instructions per step (--instructions; callgrind, which counts the same on a loaded machine):
Simulator::step() itself against the whole per-step cost of each way of stepping from Python.

Sweep (wall time, median of 3): the four-bar's motor speed at 200 values from 1 to 5 rad/s, 5 s of
each (its scene's duration), run serially in this process and on a LocalCluster of 2 worker
processes (one thread each) started once beforehand; its start is reported apart.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import tinkertoy

ROOT = pathlib.Path(__file__).resolve().parents[1]
STEPS = 20_000
CASES, SWEEP_SECONDS = 200, 5.0


def cpp_step_seconds(bench):
    """CPU seconds per step of the same 20 000 steps in C++, the median of 3 repetitions."""
    result = subprocess.run(
        [bench, "--benchmark_filter=scene_step/double_pendulum", "--benchmark_repetitions=3",
         "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
        check=True, capture_output=True, text=True)
    for entry in json.loads(result.stdout)["benchmarks"]:
        if entry.get("aggregate_name") == "median":
            assert entry["time_unit"] == "ms" and entry["steps"] == STEPS
            return entry["cpu_time"] * 1e-3 / STEPS
    raise RuntimeError("tinkertoy-bench reported no median")


def median_cpu(measure, repeats=3):
    """The median over `repeats` fresh simulators of the CPU seconds per step `measure(sim)` takes."""
    times = []
    for _ in range(repeats):
        sim = tinkertoy.Simulator(tinkertoy.load_scene(ROOT / "scenes" / "double_pendulum.json"))
        start = time.process_time()
        measure(sim)
        times.append((time.process_time() - start) / STEPS)
    return statistics.median(times)


def stepping(sim):
    step = sim.step
    for _ in range(STEPS):
        step()


def step_overhead(bench):
    cpp = cpp_step_seconds(bench)
    rows = [("C++ loop", cpp),
            ("step() from Python", median_cpu(stepping)),
            ("run(every=1)", median_cpu(lambda sim: sim.run(STEPS * 1e-3, every=1))),
            ("run(every=100)", median_cpu(lambda sim: sim.run(STEPS * 1e-3, every=100)))]
    print(f"double pendulum, {STEPS} steps, CPU time per step (median of 3)")
    for label, seconds in rows:
        print(f"  {label:20} {seconds * 1e6:8.2f} us   {seconds / cpp:5.2f} x C++")


def sweep_timing(repeats=3):
    from dask.distributed import Client, LocalCluster

    speeds = {"constraints[0].motor_speed": list(np.linspace(1.0, 5.0, CASES))}
    scene = ROOT / "scenes" / "four_bar.json"
    walls = {"serial": [], "LocalCluster, 2 workers": []}
    tables = {}
    start = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        started = time.perf_counter() - start
        for _ in range(repeats):
            for label, scheduler in (("serial", "serial"), ("LocalCluster, 2 workers", client)):
                begin = time.perf_counter()
                tables[label] = tinkertoy.sweep(scene, speeds, duration=SWEEP_SECONDS, every=1000, scheduler=scheduler)
                walls[label].append(time.perf_counter() - begin)
    serial, cluster_table = tables["serial"], tables["LocalCluster, 2 workers"]
    assert all(e == "" for e in serial["error"]), "a four-bar case failed"
    assert np.array_equal(serial["constraint_error"], cluster_table["constraint_error"]), "the cluster's bits differ"
    print(f"four-bar sweep, {CASES} cases of {SWEEP_SECONDS:g} s, wall time (median of 3)")
    base = statistics.median(walls["serial"])
    for label, times in walls.items():
        print(f"  {label:24} {statistics.median(times):7.2f} s   speed-up {base / statistics.median(times):4.2f}")
    print(f"  (starting the LocalCluster took {started:.2f} s, not counted above)")


def probe(mode, steps):
    """What --instructions runs under callgrind: `steps` steps of the double pendulum, by `mode`."""
    sim = tinkertoy.Simulator(tinkertoy.load_scene(ROOT / "scenes" / "double_pendulum.json"))
    if mode == "step":
        for _ in range(steps):
            sim.step()
    elif steps > 0:
        sim.run(steps * 1e-3, every=1 if mode == "run1" else 100)


def callgrind_instructions(command, scratch, toggle=None):
    """The instructions callgrind counts running `command` (inside `toggle` only, if given)."""
    out = pathlib.Path(scratch) / "callgrind.out"
    options = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    if toggle:
        options.append(f"--toggle-collect={toggle}")
    subprocess.run(options + command, check=True, capture_output=True, text=True)
    for line in out.read_text().splitlines():
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise RuntimeError("no totals in " + str(out))


def instruction_counts(steps=2000):
    """Instructions per step (callgrind: the same counts on a loaded machine as on an idle one).
    The C++ reference is Simulator::step() itself, counted inside the Python step() loop: a C++
    loop adds nothing to it."""
    probe_command = [sys.executable, __file__, "--probe"]
    with tempfile.TemporaryDirectory() as scratch:
        step_only = callgrind_instructions(probe_command + ["step", str(steps)], scratch,
                                           toggle="tinkertoy::Simulator::step()") / steps
        print(f"double pendulum, instructions per step (callgrind, {steps} steps; the difference of {steps} and 0 steps)")
        print(f"  {'Simulator::step() itself':28} {step_only:10.0f}   1.000")
        for mode, label in (("step", "step() from Python"), ("run1", "run(every=1)"), ("run100", "run(every=100)")):
            counts = [callgrind_instructions(probe_command + [mode, str(n)], scratch) for n in (0, steps)]
            per_step = (counts[1] - counts[0]) / steps
            print(f"  {label:28} {per_step:10.0f}   {per_step / step_only:5.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", default=str(ROOT / "build" / "release" / "tinkertoy-bench"))
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--instructions", action="store_true", help="also count instructions per step with callgrind")
    parser.add_argument("--probe", nargs=2, metavar=("MODE", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        probe(args.probe[0], int(args.probe[1]))
        return
    step_overhead(args.bench)
    if args.instructions:
        instruction_counts()
    if not args.skip_sweep:
        sweep_timing()


if __name__ == "__main__":
    main()
