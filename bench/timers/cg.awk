# Reads callgrind dumps (one file per CALLGRIND_DUMP_STATS_AT) and prints,
# per dump label, the totals, each function's own instructions and each
# caller -> callee edge with its call count and inclusive instructions:
#	T|label|Ir
#	S|label|function|self Ir
#	C|label|caller|callee|calls|inclusive Ir
# Only the Ir event is expected (callgrind's default). POSIX awk; with
# bench/callgrind-names.awk for fname().

function flush(    k, parts) {
	if (label == "")
		return
	print "T|" label "|" total
	for (k in self) {
		split(k, parts, SUBSEP)
		print "S|" label "|" parts[2] "|" self[k]
	}
	for (k in incl) {
		split(k, parts, SUBSEP)
		print "C|" label "|" parts[2] "|" parts[3] "|" ncalls[k] "|" incl[k]
	}
}

FNR == 1 {
	flush()
	label = ""
	total = 0
	fn = ""
	incall = 0
	split("", self)
	split("", incl)
	split("", ncalls)
}

/^desc: Trigger: Client Request: / {
	label = $0
	sub(/^desc: Trigger: Client Request: /, "", label)
	next
}

/^totals: / || /^summary: / {
	total = $2
	next
}

/^fn=/ {
	fn = fname(substr($0, 4))
	next
}

/^cfn=/ {
	cfn = fname(substr($0, 5))
	next
}

/^calls=/ {
	ncall = substr($1, 7)
	incall = 1
	next
}

/^[0-9+*-]/ {
	if (incall) {
		incl[label, fn, cfn] += $2
		ncalls[label, fn, cfn] += ncall
		incall = 0
	} else {
		self[label, fn] += $2
	}
	next
}

END {
	flush()
}
