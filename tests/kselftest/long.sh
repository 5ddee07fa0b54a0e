#!/bin/bash
# make check-long: Linux's NTP selftests that take minutes each,
# change_skew and skew_consistency at HZ 97 and 4321
# (tests/kselftest/check.sh with KSELFTEST_LONG=1, which says what each
# must print): 9 to 16 minutes of wall time each, two at a time, 26
# minutes in all on 2 cores shared with other builds (load 12).
cd "$(dirname "$0")/../.." || exit 1
KSELFTEST_LONG=1 bash tests/kselftest/check.sh 'change_skew|skew_consistency'
