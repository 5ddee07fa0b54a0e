# Callgrind's name compression, for the benchmarks' awk scripts (use with
# awk -f bench/callgrind-names.awk -f SCRIPT): fname("(12) foo") is "foo"
# and names id 12 for the rest of that file; fname("(12)") is then "foo"
# again. Ids are per file, falling back to any file's (dumps of one run
# share them). POSIX awk.

function fname(s,    id, rest, p) {
	if (s !~ /^\(/)
		return s
	p = index(s, ")")
	id = substr(s, 2, p - 2)
	rest = substr(s, p + 1)
	sub(/^ /, "", rest)
	if (rest != "") {
		names[FILENAME, id] = rest
		gnames[id] = rest
		return rest
	}
	if ((FILENAME, id) in names)
		return names[FILENAME, id]
	return gnames[id]
}
