# judge-table.awk -v cols="A B ..." -v dir=DIR: the rows of a Markdown table
# (scripts/linux/judge.sh), one per check found in any DIR/COL.res ("CHECK
# STATUS SECONDS" lines), in the order first seen, a column per COL: the
# status and the guest seconds, "-" when that boot did not run the check.
BEGIN {
	n = split(cols, c, " ")
	rows = 0
	for (i = 1; i <= n; i++) {
		f = dir "/" c[i] ".res"
		while ((getline line < f) > 0) {
			split(line, w, " ")
			if (!(w[1] in seen)) {
				seen[w[1]] = 1
				order[++rows] = w[1]
			}
			cell = (w[2] == "pass" ? "pass" : w[2] == "skip" ? "skip" : "**FAIL**")
			if (w[3] != "-" && w[3] != "")
				cell = cell " " w[3]
			v[w[1], i] = cell
		}
		close(f)
	}
	for (r = 1; r <= rows; r++) {
		printf "| %s |", order[r]
		for (i = 1; i <= n; i++)
			printf " %s |", ((order[r], i) in v ? v[order[r], i] : "-")
		printf "\n"
	}
}
