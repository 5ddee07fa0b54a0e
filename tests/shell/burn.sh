#!/bin/sh
# Burns 0.4 s of CPU (tests/shell): the shell's own arithmetic, no fork,
# until /proc/uptime's clock has moved 40 hundredths ("12.34" as 1234:
# the 1 before the hundredths keeps a leading 0 from reading as octal).
read -r s x </proc/uptime
s=$((${s%.*} * 100 + 1${s#*.} - 100))
n=$s
while [ "$n" -lt $((s + 40)) ]; do
	i=0
	while [ $i -lt 500 ]; do i=$((i + 1)); done
	read -r n x </proc/uptime
	n=$((${n%.*} * 100 + 1${n#*.} - 100))
done
