#!/bin/bash
# hzadvise's HTML report, opened in a real browser (headless Chromium), held
# to its own text (issue 43, item 6):
#  - a cell is red (its computed colour) exactly where the program: and
#    thread: lines say late=yes, which is where the text marks "!";
#  - no text of either figure (legends included) reaches outside its SVG;
#  - a trace the model cannot vouch for (rerecord=yes on the check: line)
#    shows the warning.
# A script added to a copy of the page measures what the browser laid out
# and writes it into the page; --dump-dom prints the page after it ran.
#
#	html-check.sh HZADVISE OUTDIR TRACE...
# Prints "pass NAME" or "fail NAME: why" lines. Chromium is installed with
# apt-get when missing and run as root; without it, one "skip" line.
bin=$1 out=$2
shift 2
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$browser" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
		>"$out/apt.log" 2>&1 || { apt-get update -qq >/dev/null 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
			>>"$out/apt.log" 2>&1; }
	browser=$(command -v chromium)
fi
if [ -z "$browser" ]; then
	echo "skip html: no chromium (apt-get install chromium)"
	exit 0
fi

measure='<script>
window.addEventListener("load", () => {
	const out = [];
	document.querySelectorAll("svg").forEach((svg, i) => {
		const w = +svg.getAttribute("width"), h = +svg.getAttribute("height");
		svg.querySelectorAll("text").forEach(t => {
			const b = t.getBBox();
			if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5)
				out.push("outside svg" + i + " " + Math.round(b.x) + ".." + Math.round(b.x + b.width) +
					" of " + w + ": " + t.textContent);
			else
				out.push("inside svg" + i + ": " + t.textContent);
		});
	});
	const red = el => getComputedStyle(el).color === "rgb(204, 0, 0)" ? "red" : "plain";
	document.querySelectorAll("tr.prog").forEach(tr => {
		const c = tr.querySelectorAll("td");
		tr.querySelectorAll("td[data-setting]").forEach(td =>
			out.push("prog " + c[0].textContent + "|" + c[1].textContent + " " +
				td.dataset.setting + " " + red(td)));
	});
	document.querySelectorAll("td[data-thread]").forEach(td =>
		out.push("thread " + td.dataset.thread + " " + td.dataset.setting + " " + red(td)));
	const w = document.getElementById("rerecord");
	out.push("rerecord " + (w ? red(w) : "none"));
	const pre = document.createElement("pre");
	pre.id = "measured";
	const nl = String.fromCharCode(10);
	pre.textContent = nl + out.join(nl) + nl;
	document.body.appendChild(pre);
});
</script>'

for t in "$@"; do
	name=$(basename "${t%%.*}")
	"$bin" --html "$out/$name.html" "$t" >"$out/$name.txt" 2>"$out/$name.err" || {
		echo "fail html $name: hzadvise exit status $?: $(head -1 "$out/$name.err")"
		continue
	}
	# The page as written, the script before its end.
	{ sed 's#</body></html>$##' "$out/$name.html"; echo "$measure"; echo '</body></html>'; } >"$out/$name.measure.html"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --user-data-dir="$out/chrome-profile" \
		--virtual-time-budget=2000 --dump-dom "file://$(cd "$out" && pwd)/$name.measure.html" \
		>"$out/$name.dom" 2>"$out/$name.chrome.err"
	sed -n '/<pre id="measured">/,/<\/pre>/p' "$out/$name.dom" | sed '1d;$d' >"$out/$name.measured"
	if [ ! -s "$out/$name.measured" ]; then
		echo "fail html $name: the browser measured nothing: $(tail -2 "$out/$name.chrome.err")"
		continue
	fi
	p=()
	# The figures: every text inside its SVG, and there are texts to see.
	grep -q '^inside svg1: observed' "$out/$name.measured" || p+=("no legend 'observed' in the lateness figure")
	while read -r l; do p+=("$l"); done < <(grep '^outside' "$out/$name.measured")
	# The tables against the text's lines: late=yes where red, and only there.
	want=$(awk '/^program: / { n = $4; sub(/name=/, "", n); k = $5; sub(/source=/, "", k)
			h = $2; sub(/hz=/, "", h); m = $3 == "mode=nohz" ? "n" : "p"
			print "prog " n "|" k " " h m " " ($NF == "late=yes" ? "red" : "plain") }
		/^thread: / { h = $2; sub(/hz=/, "", h); m = $3 == "mode=nohz" ? "n" : "p"
			for (i = 1; i <= NF; i++) { if ($i ~ /^pid=/) pid = substr($i, 5)
				if ($i ~ /^timeout_ticks=/) tt = substr($i, 15) }
			print "thread " pid ":" tt " " h m " " ($NF == "late=yes" ? "red" : "plain") }' \
		"$out/$name.txt" | sort -u)
	got=$(grep -E '^(prog|thread) ' "$out/$name.measured" | sort -u)
	# Every cell the page has must be as the text says (the page shows the
	# text table's programs, the lines have them all).
	bad=$(comm -13 <(echo "$want") <(echo "$got"))
	[ -z "$bad" ] || p+=("cells not as the text says: $(head -3 <<<"$bad" | tr '\n' ';')")
	[ -n "$got" ] || [ -z "$want" ] || p+=("no table cells measured")
	# Every late=yes line of a shown program or thread is a red cell.
	missing=$(comm -23 <(grep ' red$' <<<"$want") <(echo "$got"))
	[ -z "$missing" ] || p+=("late in the text, not red on the page: $(head -3 <<<"$missing" | tr '\n' ';')")
	rr=$(sed -n 's/^check: .* rerecord=\([a-z]*\).*/\1/p' "$out/$name.txt")
	wr=$(sed -n 's/^rerecord //p' "$out/$name.measured")
	{ [ "$rr" = yes ] && [ "$wr" = red ]; } || { [ "$rr" = no ] && [ "$wr" = none ]; } ||
		p+=("check: rerecord=$rr, the page's warning: $wr")
	reds=$(grep -c ' red$' <<<"$got")
	if [ ${#p[@]} -eq 0 ]; then
		echo "pass html $name: $(grep -c '^inside' "$out/$name.measured") texts inside their figures, $reds red cells as the text's late=yes, warning $wr"
	else
		echo "fail html $name: ${p[*]}"
	fi
done
