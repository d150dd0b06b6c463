"""Issue 26: the generated adversarial pass over the package (probe_generator.py) in a child
process, so a crash is reported with the case it died on instead of taking pytest down."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def test_every_public_call_refuses_boundary_values_cleanly(tmp_path):
    log = tmp_path / "probe.log"
    run = subprocess.run([sys.executable, os.path.join(HERE, "probe_generator.py"), str(log)],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        last = log.read_text().splitlines()[-1:] if log.exists() else ["(no case started)"]
        raise AssertionError("the probe process died (exit %d) on %s\n%s"
                             % (run.returncode, last[0], run.stderr[-2000:]))
    result = json.loads(run.stdout.strip().splitlines()[-1])
    print("generated probes: %d cases, %d findings" % (result["cases"], len(result["findings"])))
    assert result["cases"] > 2000
    assert not result["findings"], "\n".join(result["findings"][:40])
