#!/usr/bin/python3
"""The speed guard: instructions per step of representative scenarios, against budgets.

Each scenario runs twice under callgrind, counting only the instructions inside
tinkertoy::Simulator::step(): once for a few steps and once for more. The difference over the
difference in steps is the cost of a step with the first step's layout analysis and
factorization set aside. Callgrind counts instructions, not time, so the figure is the same on a
loaded machine as on a quiet one, and the same from run to run.

A scenario fails when it takes more than 10 % above its budget in instruction_budgets.json. A
budget lowered after a speed-up is a one-line change with the figure this prints. A scenario
whose code the processor's instruction set changes (the contact passes' loops are built for AVX2
and for any x86-64, and the program runs the one the processor has) has a budget for each:
{"avx2": N, "other": M}, chosen by whether /proc/cpuinfo lists avx2. Without
valgrind the guard skips (exit code 77, which ctest reports as skipped), saying so.

Usage: speed_guard.py TINKERTOY TINKERTOY_PEERS SCENES_DIR [--only NAME]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
MARGIN = 1.10
HERE = os.path.dirname(os.path.abspath(__file__))


def scenarios(tinkertoy, peers, scenes):
    """Each scenario: name -> a function of a step count giving (command, steps it takes)."""

    def peer(scenario, mode, dt):
        def command(steps, out):
            duration = "%.17g" % (steps * dt)
            return [peers, "--scenarios", scenario, "--engines", mode + "$", "--duration", duration,
                    "--repeat", "1"], steps
        return command

    def scene(file):
        def command(steps, out):
            # The steps a run takes are read from its summary, at the scene's own dt.
            return [tinkertoy, "run", os.path.join(scenes, file), "--quiet", "--duration",
                    "%.17g" % (steps * scene_dt(os.path.join(scenes, file))), "--summary", out], None
        return command

    return {
        "chain-1000 exact": (peer("chain-1000", "tinkertoy/exact", 1 / 240), 4, 24),
        "cloth-16 exact": (peer("cloth-16", "tinkertoy/exact", 1 / 240), 4, 44),
        "joint_grid-32 soft step": (peer("joint_grid-32", "tinkertoy/soft step, 4 substeps", 1 / 60), 4, 24),
        "pyramid-20 soft step": (peer("pyramid-20", "tinkertoy/soft step, 4 substeps", 1 / 60), 4, 24),
        "showcase": (scene("showcase.json"), 4, 44),
        "formula gallery": (scene("formula_gallery.json"), 4, 44),
    }


def has_avx2():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return any(line.startswith("flags") and " avx2" in line for line in f)
    except OSError:
        return False


def budget_of(entry):
    """A budget: a number, or one by instruction set ({"avx2": N, "other": M})."""
    if isinstance(entry, dict):
        return entry["avx2" if has_avx2() else "other"]
    return entry


def scene_dt(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f).get("settings", {}).get("dt", 0.01)


def instructions(command, summary):
    """Instructions inside Simulator::step() over the whole command, and the steps it took."""
    argv, steps = command
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--toggle-collect=tinkertoy::Simulator::step()"] + argv,
        capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not found:
        raise RuntimeError("%s failed (exit %d):\n%s" % (" ".join(argv), result.returncode, result.stderr[-2000:]))
    if steps is None:
        with open(summary, encoding="utf-8") as f:
            steps = json.load(f)["steps"]
    return int(found.group(1)), steps


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    tinkertoy, peers, scenes = argv[1:4]
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    if shutil.which("valgrind") is None:
        print("speed guard skipped: valgrind is not installed (apt-get install valgrind)")
        return SKIP
    with open(os.path.join(HERE, "instruction_budgets.json"), encoding="utf-8") as f:
        budgets = json.load(f)
    failures = []
    with tempfile.TemporaryDirectory(prefix="tinkertoy-speed-") as scratch:
        summary = os.path.join(scratch, "summary.json")
        for name, (command, few, many) in scenarios(tinkertoy, peers, scenes).items():
            if only and name != only:
                continue
            if name not in budgets:
                failures.append("%s: no budget in instruction_budgets.json" % name)
                continue
            a, steps_a = instructions(command(few, summary), summary)
            b, steps_b = instructions(command(many, summary), summary)
            per_step = (b - a) / (steps_b - steps_a)
            budget = budget_of(budgets[name])
            verdict = "ok" if per_step <= MARGIN * budget else "OVER"
            print("%-26s %12.0f instructions per step, budget %12.0f (%+.1f %%) %s"
                  % (name, per_step, budget, 100 * (per_step / budget - 1) if budget else float("inf"), verdict))
            if verdict != "ok":
                failures.append("%s: %.0f instructions per step, more than %.0f %% above its budget of %.0f"
                                % (name, per_step, 100 * (MARGIN - 1), budget))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
