"""An hpm-overlay board on a labgrid place (docs/hil.md, Boards on many hosts).

  pytest -rs --lg-env lab/env-local.yaml lab/test_board.py    (this machine)
  LG_PLACE=ice-7 pytest -rs --lg-env lab/env-remote.yaml lab/test_board.py

Takes the place (with a coordinator: labgrid-client acquire; a local
environment has no coordinator and its board is this machine's), flashes the
bitstream with make prog (the environment's option hpm_flash: another
command, or empty when the board's own host flashes it) unless the target
has the feature 'simulated',
validates the board through the place's NetworkSerialPort (hpmctl --link
rfc2217:HOST:PORT, or tcp: for a raw port) against the reference model with
a JUnit report, and releases the place.

Environment: HPMCTL (default build/bin/hpmctl), HPM_LAB_JUNIT (the report,
default build/lab/SERIAL.xml), HPM_LAB_WORKLOADS (what validate checks,
default --all). The board's serial in the report is the environment's option
hpm_board_serial, else the place's name.
"""
import os
import shlex
import subprocess
import xml.etree.ElementTree as ET

import pytest
from labgrid.resource import NetworkSerialPort

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HPMCTL = os.environ.get("HPMCTL") or os.path.join(ROOT, "build", "bin", "hpmctl")


def remote_place(env):
    """The name of the main target's RemotePlace, None for a local target."""
    res = env.config.get_targets()["main"].get("resources", {})
    for entry in res if isinstance(res, list) else [res]:
        if "RemotePlace" in entry:
            return entry["RemotePlace"]["name"]
    return None


def labgrid_client(place, verb):
    p = subprocess.run(["labgrid-client", "-p", place, verb], capture_output=True, text=True)
    assert p.returncode == 0, "labgrid-client -p %s %s: %s" % (place, verb, (p.stderr or p.stdout).strip())


@pytest.fixture(scope="module")
def place(env):
    """The main target, its place held for the module."""
    name = remote_place(env)
    if name:
        labgrid_client(name, "acquire")
    else:
        print("local environment: no coordinator to acquire from; ser2net serves one client at a time")
    try:
        yield env.get_target("main"), name or env.config.get_option("hpm_board_serial", "main")
    finally:
        if name:
            labgrid_client(name, "release")


def test_flash(place, env):
    if "simulated" in env.get_target_features():
        pytest.skip("the place's board is the simulated board (feature 'simulated'): no bitstream to flash")
    cmd = env.config.get_option("hpm_flash", "make --no-print-directory prog BOARD=icebreaker")
    if not cmd.strip():
        pytest.skip("the environment's hpm_flash is empty: the board is flashed on its own host (make hil there)")
    p = subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, "%s: %s" % (cmd, (p.stdout + p.stderr).strip())


def test_validate(place):
    target, serial = place
    port = target.get_resource(NetworkSerialPort)
    kind = {"rfc2217": "rfc2217", "raw": "tcp"}.get(port.protocol)
    assert kind, "NetworkSerialPort protocol %r: hpmctl speaks rfc2217 and raw" % port.protocol
    host = "[%s]" % port.host if ":" in port.host else port.host
    link = "%s:%s:%d" % (kind, host, port.port)
    junit = os.environ.get("HPM_LAB_JUNIT") or os.path.join(ROOT, "build", "lab", serial + ".xml")
    os.makedirs(os.path.dirname(os.path.abspath(junit)), exist_ok=True)
    if os.path.exists(junit):
        os.unlink(junit)
    cmd = [HPMCTL, "--link", link, "validate"] + shlex.split(os.environ.get("HPM_LAB_WORKLOADS", "--all")) + \
        ["--junit", junit, "--junit-property", "board.serial=" + serial, "--junit-property", "board.host=" + port.host]
    print(" ".join(shlex.quote(c) for c in cmd))
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    summary = [l for l in p.stderr.splitlines() if "validate:" in l or l.startswith("hpmctl:")]
    print("\n".join(summary))
    assert p.returncode == 0, "exit %d: %s" % (p.returncode, " | ".join(summary))
    suite = ET.parse(junit).getroot().find("testsuite")
    props = {q.get("name"): q.get("value") for q in suite.findall("properties/property")}
    cases = suite.findall("testcase")
    assert cases and all(not list(c) for c in cases), "%s: a test case that did not pass" % junit
    assert int(suite.get("tests")) == len(cases) and int(suite.get("failures")) == int(suite.get("errors")) == 0
    assert props.get("board.link") == link and props.get("board.serial") == serial, props
    print("%s: %d test cases passed (%s)" % (junit, len(cases), link))
