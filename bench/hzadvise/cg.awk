# bench/hzadvise: from an hzadvise -v run's output (the first file) and its
# callgrind dump (the second), one line:
#	name|lines|events|settings|cpus|parse Ir|replay Ir
# where parse Ir is what the calls of source_read cost, what they called
# included, and replay Ir the same for replay_cpu. POSIX awk; with
# bench/callgrind-names.awk for fname().

FILENAME == ARGV[1] {
	if ($1 == "trace:")
		for (i = 2; i < NF; i++)
			if ($(i + 1) == "CPUs")
				cpus = $i
	if ($0 ~ /^hzadvise: read /)
		lines = $3
	if ($0 ~ /^hzadvise: replayed /) {
		events = $3
		settings = substr($5, 2)
	}
	next
}

/^fn=/ {
	fname(substr($0, 4))
	next
}

/^cfn=/ {
	cfn = fname(substr($0, 5))
	next
}

/^calls=/ {
	incall = 1
	next
}

/^[0-9+*-]/ {
	if (incall)
		incl[cfn] += $2
	incall = 0
	next
}

END {
	printf "%s|%s|%s|%s|%s|%.0f|%.0f\n", name, lines, events, settings, cpus, incl["source_read"],
		incl["replay_cpu"]
}
