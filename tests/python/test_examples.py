"""The Python examples (examples/python/) run, check their own numbers, and write their plots."""

import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run_example(name, tmp_path, *arguments):
    output = tmp_path / (name + ".png")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / (name + ".py")), "-o", str(output), *arguments],
        capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ, MPLCONFIGDIR=str(tmp_path)),
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return result.stdout


def test_pendulum_period_matches_the_closed_form(tmp_path):
    out = run_example("pendulum_period", tmp_path)
    largest = float(out.split("largest relative error: ")[1].split()[0])
    assert largest < 1e-8


@pytest.mark.parametrize("scheduler", [None, "serial"])
def test_four_bar_sweep_traces_closed_coupler_curves(tmp_path, scheduler):
    arguments = [] if scheduler is None else ["--scheduler", scheduler]
    out = run_example("four_bar_sweep", tmp_path, *arguments)
    lines = [line for line in out.splitlines() if line.startswith("rocker")]
    assert len(lines) == 4
    for line in lines:
        assert float(line.split("‖C‖∞ ")[1]) < 1e-5


def test_compare_formulations_reports_every_formulation(tmp_path):
    out = run_example("compare_formulations", tmp_path)
    rows = {line[:34].strip(): line[34:].split() for line in out.splitlines()[1:] if line[:1].isalpha()
            and not line.startswith("plot")}
    assert set(rows) == {"acceleration, CG", "acceleration, LDLT", "velocity, LDLT + projection",
                         "velocity, sequential + Baumgarte", "reduced coordinates"}
    # Witkin's method at RK4 and dt = 1e-3 follows the reference closely over 2 s; the projection
    # holds the rods exactly; the reduced model has no rods to break.
    assert float(rows["acceleration, LDLT"][0]) < 1e-3
    assert float(rows["velocity, LDLT + projection"][1]) < 1e-8
    assert float(rows["reduced coordinates"][1]) == 0.0
