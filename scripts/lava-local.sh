#!/usr/bin/env bash
# A LAVA server on this machine, in one folder (docs/fleet.md, "A local LAVA server"):
# a PostgreSQL cluster of its own, lava-server migrated into it, a superuser and an API
# token, the project's qemu device type (replayer/suite/lava/qemu-hwct.jinja2, rendered by
# the server), DEVICES qemu devices on one local worker, gunicorn on 127.0.0.1.
#
#   scripts/lava-local.sh start DIR [DEVICES]   (default 2 devices; prints URL and token)
#   scripts/lava-local.sh stop DIR              (ends every process of the instance)
#   scripts/lava-local.sh status DIR            (what runs; exit 0 when all of it does)
#   scripts/lava-local.sh restart DIR [server|worker]  (the database and its jobs stay)
#   scripts/lava-local.sh manage DIR ARGS...    (lava-server manage ARGS on the instance)
#   scripts/lava-local.sh env DIR               (the environment `lava-server manage` needs)
#
# Nothing is written outside DIR but lava-run's work folders (/var/lib/lava/dispatcher/tmp,
# named with the instance's prefix, removed by the worker after each job). Needs root (the
# worker runs lava-run, which runs as root only) and scripts/install-deps.sh lava.
# Every process started here carries HWCT_LAVA_LOCAL=DIR in its environment, inherited by
# what it starts (lava-run, qemu): stop ends them all by that mark, status lists them.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
template="$here/replayer/suite/lava/qemu-hwct.jinja2"
[ -f "$template" ] || template="$here/share/hwctrace/suite/lava/qemu-hwct.jinja2"

usage() {
	echo "usage: $0 start|stop|status|restart|manage|env DIR [DEVICES | server|worker | ARGS...]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$(realpath -m "$2")

die() {
	echo "lava-local: $*" >&2
	exit 1
}

# pids of every process of the instance: those marked with HWCT_LAVA_LOCAL=DIR (gunicorn
# and postgres overwrite their environment with their process titles, so not all of
# them), the daemons of run/*.pid and PostgreSQL's postmaster, and all their descendants
marked() {
	local roots
	roots=$(grep -lzxF "HWCT_LAVA_LOCAL=$dir" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true)
	roots="$roots $(cat "$dir"/run/*.pid 2>/dev/null || true)"
	roots="$roots $(head -n 1 "$dir/pg/data/postmaster.pid" 2>/dev/null || true)"
	ps -e -o pid=,ppid= | awk -v roots="$roots" -v self=$$ '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) { ours[r[i]] = 1 } }
		{ pid[NR] = $1; parent[NR] = $2; alive[$1] = 1 }
		END {
			do {
				more = 0
				for (i = 1; i <= NR; i++) {
					if (!(pid[i] in ours) && (parent[i] in ours)) { ours[pid[i]] = 1; more = 1 }
				}
			} while (more)
			for (p in ours) { if (p in alive && p != self) { print p } }
		}'
}

# The settings every lava-server command of the instance reads (lava_server.settings.prod
# takes LAVA_SETTINGS_* and LAVA_YAML_SETTINGS_* from the environment, after /etc's files).
write_env() {
	local port=$1 web=$2 secret=$3 events=$4 ws=$5
	cat > "$dir/env" <<EOF
export HWCT_LAVA_LOCAL='$dir'
export LAVA_YAML_SETTINGS_DATABASES='{default: {ENGINE: django.db.backends.postgresql, NAME: lavaserver, USER: lavaserver, HOST: "$dir/pg", PORT: $port}}'
export SECRET_KEY='$secret'
export LAVA_SETTINGS_MEDIA_ROOT='$dir/media'
export LAVA_SETTINGS_DJANGO_LOGFILE='$dir/log/django.log'
export LAVA_SETTINGS_DEVICES_PATH='$dir/config/devices'
export LAVA_YAML_SETTINGS_DEVICE_TYPES_PATHS='["$dir/config/device-types", /usr/share/lava-server/device-types]'
export LAVA_SETTINGS_HEALTH_CHECKS_PATH='$dir/config/health-checks'
export LAVA_SETTINGS_DISPATCHER_CONFIG_PATH='$dir/config/dispatcher.d'
export LAVA_YAML_SETTINGS_ALLOWED_HOSTS='[127.0.0.1, localhost]'
export LAVA_YAML_SETTINGS_DEBUG='false'
export LAVA_YAML_SETTINGS_EVENT_NOTIFICATION='true'
export LAVA_SETTINGS_INTERNAL_EVENT_SOCKET='ipc://$dir/events/internal'
export LAVA_SETTINGS_EVENT_SOCKET='tcp://127.0.0.1:$events'
export HWCT_LAVA_EVENTS=$events
export HWCT_LAVA_WS=$ws
export HWCT_LAVA_PG_PORT=$port
export HWCT_LAVA_URL='http://127.0.0.1:$web/'
export HWCT_LAVA_BIND='127.0.0.1:$web'
EOF
}

# Starts a daemon in a session of its own; its pid in run/NAME.pid, output in log/NAME.log.
daemon() {
	local name=$1
	shift
	setsid "$@" > "$dir/log/$name.log" 2>&1 < /dev/null &
	echo $! > "$dir/run/$name.pid"
}

# the newest installed PostgreSQL's programs (initdb, pg_ctl are not on PATH)
postgres_bin() {
	find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for() { # seconds what command...
	local n=$1 what=$2
	shift 2
	while ! "$@" > /dev/null 2>&1; do
		n=$((n - 1))
		[ $n -gt 0 ] || die "$what did not come up (logs in $dir/log)"
		sleep 1
	done
}

manage() {
	lava-server manage "$@"
}

start() {
	local devices=${1:-2} t0 port web secret token i
	case $devices in
	'' | *[!0-9]* | 0) die "DEVICES: a number of devices from 1, not '$devices'" ;;
	esac
	[ "$(id -u)" -eq 0 ] || die "needs root (the worker runs lava-run, which runs as root only)"
	command -v lava-server > /dev/null || die "lava-server is not installed (scripts/install-deps.sh lava)"
	pgbin=$(postgres_bin)
	[ -n "$pgbin" ] || die "PostgreSQL is not installed (scripts/install-deps.sh lava)"
	[ -z "$(marked)" ] || die "$dir: an instance runs there already (stop it first)"
	t0=$(date +%s.%N)
	# a folder of its own: an earlier instance's (its env file) is started afresh
	if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/env" ]; then
		die "$dir: not empty and not an instance's folder"
	fi
	mkdir -p "$dir"
	rm -rf "${dir:?}/pg" "${dir:?}/config" "${dir:?}/media" "${dir:?}/log" "${dir:?}/run" "${dir:?}/events" \
		"${dir:?}/worker"
	mkdir -p "$dir/log" "$dir/run" "$dir/events" "$dir/media" "$dir/config/devices" "$dir/config/device-types" \
		"$dir/config/health-checks" "$dir/config/dispatcher.d" "$dir/worker"
	port=$(free_port)
	web=$(free_port)
	secret=$(head -c 32 /dev/urandom | base64 | tr -d '/+=')
	write_env "$port" "$web" "$secret" "$(free_port)" "$(free_port)"
	# shellcheck source=/dev/null
	. "$dir/env"

	# PostgreSQL refuses to run as root: its cluster belongs to the postgres user, which
	# must reach DIR; it listens on a socket in DIR/pg only (no TCP at all).
	chmod 755 "$dir"
	runuser -u postgres -- test -x "$dir" ||
		die "$dir: the postgres user cannot reach it (PostgreSQL's cluster lives there): a parent folder is closed to others"
	mkdir "$dir/pg"
	chown postgres: "$dir/pg"
	runuser -u postgres -- "$pgbin/initdb" -D "$dir/pg/data" -U postgres --auth=trust -E UTF8 \
		--locale=C.UTF-8 > "$dir/log/initdb.log" 2>&1 || die "initdb failed ($dir/log/initdb.log)"
	runuser -u postgres -- env HWCT_LAVA_LOCAL="$dir" "$pgbin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/postgres.log" -w \
		-o "-c listen_addresses='' -c unix_socket_directories='$dir/pg' -p $port -c fsync=off" start \
		> "$dir/log/pg_ctl.log" 2>&1 || die "PostgreSQL did not start ($dir/pg/postgres.log)"
	runuser -u postgres -- psql -q -h "$dir/pg" -p "$port" -U postgres -c "CREATE ROLE lavaserver LOGIN" \
		-c "CREATE DATABASE lavaserver OWNER lavaserver TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8';" \
		|| die "cannot create the database"

	manage migrate --noinput > "$dir/log/migrate.log" 2>&1 || die "migration failed ($dir/log/migrate.log)"
	token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
	echo "$token" > "$dir/token"
	chmod 600 "$dir/token"
	# lava-run's work folders: /var/lib/lava/dispatcher/tmp/<prefix><job>, this
	# instance's prefix, so that another instance or a plain lava-run does not meet them
	echo "prefix: hwct-$web-" > "$dir/config/dispatcher.d/hwct-local.yaml"
	for i in $(seq 1 "$devices"); do
		cp "$template" "$dir/config/devices/$(printf 'qemu-hwct-%02d' "$i").jinja2"
	done
	# lava-server's own management commands, in one process (each alone starts Django):
	# a superuser with a random password and the API token; the device type qemu (its
	# template is lava-server's qemu.jinja2), the worker, and the devices, whose dictionary
	# is the project's qemu-hwct.jinja2, healthy (there is no health check job); then the
	# worker's token
	manage shell -c "
from django.core.management import call_command as c
from lava_scheduler_app.models import Worker
c('users', 'add', '--superuser', '--staff', 'admin')
c('tokens', 'add', '--user', 'admin', '--description', 'hwct-local', '--secret', '$token')
c('device-types', 'add', 'qemu')
c('workers', 'add', '--description', 'hwct local worker', 'hwct-local')
for i in range(1, $devices + 1):
    c('devices', 'add', '--device-type', 'qemu', '--worker', 'hwct-local', 'qemu-hwct-%02d' % i)
    c('devices', 'update', '--health', 'GOOD', 'qemu-hwct-%02d' % i)
print('worker-token', Worker.objects.get(hostname='hwct-local').token)
" > "$dir/log/setup.log" 2>&1 || die "setting up users, devices and the worker failed ($dir/log/setup.log)"
	sed -n 's/^worker-token //p' "$dir/log/setup.log" > "$dir/worker/token"
	[ -s "$dir/worker/token" ] || die "no worker token ($dir/log/setup.log)"
	sed -i '/^worker-token /d' "$dir/log/setup.log"
	chmod 600 "$dir/log/setup.log"
	chmod 600 "$dir/worker/token"

	chown -R lavaserver: "$dir/media" "$dir/log" "$dir/events"
	start_server
	start_worker
	cat > "$dir/instance" <<EOF
url=$HWCT_LAVA_URL
token=$token
devices=$devices
start_seconds=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
EOF
	cat "$dir/instance"
}

# the web server (gunicorn, REST and XML-RPC APIs), the publisher and the scheduler, as
# lavaserver as the packaged services run them. The publisher passes the server's events
# on (a job submitted, a device freed): the scheduler wakes on them instead of its
# 20-second loop alone.
start_server() {
	daemon publisher lava-server manage lava-publisher --host 127.0.0.1 --port "$HWCT_LAVA_WS" \
		--level INFO --log-file "$dir/log/publisher.log"
	wait_for 60 "the publisher" grep -q "Create the pub socket" "$dir/log/publisher.log"
	daemon gunicorn gunicorn3 lava_server.wsgi --bind "$HWCT_LAVA_BIND" --workers 2 --timeout 120 \
		--log-level info -u lavaserver -g lavaserver
	wait_for 60 gunicorn curl -sf "${HWCT_LAVA_URL}api/v0.2/system/version/"
	daemon scheduler lava-server manage lava-scheduler --level INFO --log-file "$dir/log/scheduler.log" \
		--event-url "tcp://127.0.0.1:$HWCT_LAVA_EVENTS"
}

start_worker() {
	daemon worker lava-worker --name hwct-local --url "$HWCT_LAVA_URL" --worker-dir "$dir/worker" \
		--token-file "$dir/worker/token" --log-file "$dir/log/worker.log" --level INFO \
		--ping-interval 2 --job-log-interval 2
	wait_for 60 "the worker" sh -c "curl -sf '${HWCT_LAVA_URL}api/v0.2/workers/hwct-local/' | grep -q '\"state\":\"Online\"'"
}

# ends the daemons of run/NAME.pid given (their sessions)
end_daemons() {
	local name pid n
	for name in "$@"; do
		[ -f "$dir/run/$name.pid" ] || continue
		pid=$(cat "$dir/run/$name.pid")
		kill -TERM -- "-$pid" 2>/dev/null || true
		for n in $(seq 1 20); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL -- "-$pid" 2>/dev/null || true
		rm -f "$dir/run/$name.pid"
	done
}

# a server restart: gunicorn and the scheduler, or the worker, end and start again;
# the database and the jobs it holds stay
restart() {
	local what=${1:-server}
	case $what in
	server) end_daemons scheduler gunicorn publisher ;;
	worker) end_daemons worker ;;
	*) die "restart: server or worker, not '$what'" ;;
	esac
	# shellcheck source=/dev/null
	. "$dir/env"
	if [ "$what" = server ]; then
		start_server
	else
		start_worker
	fi
	echo "lava-local: $what restarted"
}

stop() {
	local pids n
	[ -d "$dir" ] || die "$dir: no such folder"
	dir=$(cd "$dir" && pwd)
	# the worker first (it would start a job again), then the rest, then PostgreSQL
	end_daemons worker scheduler gunicorn publisher
	if [ -f "$dir/pg/data/postmaster.pid" ]; then
		pgbin=$(postgres_bin)
		runuser -u postgres -- "$pgbin/pg_ctl" -D "$dir/pg/data" -m fast -w stop > /dev/null 2>&1 || true
	fi
	# what is left (lava-run, qemu in sessions of their own): TERM, then KILL
	for n in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(marked)
		[ -n "$pids" ] || break
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null || true
		sleep 1
	done
	pids=$(marked)
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086
		kill -KILL $pids 2>/dev/null || true
		sleep 1
	fi
	pids=$(marked)
	[ -z "$pids" ] || die "processes left: $pids"
	rm -f "$dir"/run/*.pid
	echo "lava-local: stopped, no process left"
}

status() {
	local pids ok=0
	[ -d "$dir" ] || die "$dir: no such folder"
	dir=$(cd "$dir" && pwd)
	for name in gunicorn publisher scheduler worker; do
		if [ -f "$dir/run/$name.pid" ] && kill -0 "$(cat "$dir/run/$name.pid")" 2>/dev/null; then
			echo "$name: running ($(cat "$dir/run/$name.pid"))"
		else
			echo "$name: not running"
			ok=1
		fi
	done
	if [ -f "$dir/pg/data/postmaster.pid" ] && kill -0 "$(head -1 "$dir/pg/data/postmaster.pid")" 2>/dev/null; then
		echo "postgres: running ($(head -1 "$dir/pg/data/postmaster.pid"))"
	else
		echo "postgres: not running"
		ok=1
	fi
	pids=$(marked)
	# shellcheck disable=SC2086
	echo "processes: $(echo $pids | wc -w):" $pids
	return $ok
}

case $cmd in
start) start "${3:-2}" ;;
stop) stop ;;
status) status ;;
env) cat "$dir/env" ;;
restart) restart "${3:-server}" ;;
manage)
	# shellcheck source=/dev/null
	. "$dir/env"
	shift 2
	exec lava-server manage "$@"
	;;
*) usage ;;
esac
