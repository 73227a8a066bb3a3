#!/bin/bash
# fslens monitor's command line without the kernel: a bad option or value
# is one line naming it, exit 2, before anything is loaded; `make install`
# puts the systemd unit in place with the binary's path, and systemd accepts it.
. "$(dirname "$0")/../lib.sh"

bad() {	# bad NAME PATTERN ARGS...
	local name=$1 pat=$2; shift 2
	"$FSLENS" monitor "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	check_eq "$name-rc" "$?" 2
	head -1 "$T_TMP/err" >"$T_TMP/err1"
	check_grep "$name-msg" "^fslens monitor: $pat" "$T_TMP/err1"
	check_eq "$name-lines" "$(wc -l <"$T_TMP/err")" 1
}
bad listen "bad --listen 'nowhere' \(IPv4 ADDR:PORT" --listen nowhere
bad port "bad --listen '127.0.0.1:99999'" --listen 127.0.0.1:99999
bad trigger "bad --trigger 'latency>1ms' \(wait>DUR" --flight 10 --trigger 'latency>1ms'
bad trigger-unit "bad --trigger 'wait>200'" --flight 10 --trigger 'wait>200'
bad trigger-no-flight "--trigger needs --flight" --trigger 'wait>200ms'
bad interval "bad --interval '0.01'" --interval 0.01
bad cpu-freq "bad --cpu-freq 'fast' \(0 to 10000\)" --cpu-freq fast
bad cpu-freq-high "bad --cpu-freq '20000'" --cpu-freq 20000
bad extra "unexpected argument 'x'" x
bad unknown "unknown option '--bogus' \(see 'fslens monitor --help'\)$" --bogus
bad flight-short "unknown option '-F'" -F 10
bad flight-novalue "option '--flight' needs a value" --flight
"$FSLENS" monitor --help >"$T_TMP/help"
check_eq help-rc "$?" 0
check_grep help-trigger 'p99:OP>DUR' "$T_TMP/help"

# make install of the unit (DESTDIR, nothing touches the system)
make -s -C "$TOP" install DESTDIR="$T_TMP/root" PREFIX=/usr BUILD="$BUILD" \
	>"$T_TMP/inst.out" 2>&1
check_eq install-rc "$?" 0
unit=$T_TMP/root/usr/lib/systemd/system/fslens-monitor.service
check_grep unit-execstart '^ExecStart=/usr/bin/fslens monitor \$FSLENS_MONITOR_ARGS$' "$unit"
check_cmd unit-no-placeholder bash -c "! grep -q @ '$unit'"
check_cmd docs-installed test -s "$T_TMP/root/usr/share/doc/fslens/monitor.md"
check_cmd dashboard-json python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d['panels']) >= 5 else 1)" \
	"$T_TMP/root/usr/share/doc/fslens/grafana/fslens-monitor.json"
if command -v systemd-analyze >/dev/null; then
	# verify looks the binary up at its installed path: point it at this build
	sed "s|^ExecStart=/usr/bin/fslens|ExecStart=$FSLENS|" "$unit" >"$T_TMP/fslens-monitor.service"
	systemd-analyze verify "$T_TMP/fslens-monitor.service" >"$T_TMP/verify" 2>&1
	check_eq unit-verifies "$?" 0
	grep -v '^$' "$T_TMP/verify" | head -5 >&2
fi
exit $((T_FAILS > 0))
