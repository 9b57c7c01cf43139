# tests/suites/net.sh: suite net: the network links (tests/net/test_net.py):
# a real ser2net exporting the simulated board's pseudo-terminal raw and with
# RFC 2217; stat, record -c, validate, Ctrl-C and a dropped connection
# through tcp: and rfc2217: equal to the reference board; the links' one-line
# errors; tools/junit_merge.py on two boards' reports; lab/test_board.py
# under labgrid's pytest plugin with lab/env-local.yaml (validate --all).
suite_net() { python_suite net tests/net/test_net.py; }
