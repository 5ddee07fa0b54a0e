#!/bin/bash
# make check-long: the advisor's validation on Linux (tests/advisor-linux/
# check.sh) with each BusyBox boot made twice, the two held against each
# other at the same HZ: bounds taken from a trace's own spread must not
# fail the truth (issue 43, item 4). Eight boots, about 5 minutes.
cd "$(dirname "$0")/../.." || exit 1
ADVISOR_LONG=1 bash tests/advisor-linux/check.sh
