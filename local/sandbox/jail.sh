#!/bin/sh
# Builds one sandboxed process's file system view inside its new namespaces, then runs it unprivileged with its limits.
# Run by local/sandbox/spawn.ts as: unshare --user --net --pid --fork --mount --kill-child sh jail.sh ROOT WORK CPU AS NPROC FSIZE -- argv...
# The host writes this namespace's uid_map (inner 0 = the host user, inner 1000 = the sandbox's own uid); wait for it.
set -e
while [ -z "$(cat /proc/self/uid_map)" ]; do sleep 0.002; done
R="$1"; W="$2"; CPU="$3"; AS="$4"; NPROC="$5"; FSIZE="$6"; shift 7
ro_bind() {
  mkdir -p "$R$1"
  mount --rbind "$1" "$R$1"
  mount -o remount,bind,ro "$R$1"
}
mount -t tmpfs -o size=8m,mode=755 tmpfs "$R"
mkdir -p "$R/proc" "$R/dev" "$R/tmp" "$R/sandbox" "$R/etc"
# Its own /tmp first: a runtime bound below may live under the host's /tmp (a checkout there), and must stay visible.
mount -t tmpfs -o size=64m,mode=1777 tmpfs "$R/tmp"
ro_bind /usr
for link in bin lib lib64 sbin; do [ -e "/usr/$link" ] && ln -s "usr/$link" "$R/$link"; done
# The runtimes (Python's base prefix, the venv, the kernel driver) at their host paths, read-only.
old_ifs="$IFS"; IFS=":"
for path in $JAIL_BINDS; do [ -n "$path" ] && [ -e "$path" ] && ro_bind "$path"; done
IFS="$old_ifs"
for f in null zero urandom random; do touch "$R/dev/$f"; mount --bind "/dev/$f" "$R/dev/$f"; done
mount --bind "$W" "$R/sandbox"
mount -t proc proc "$R/proc"
# Not exec: this shell stays the namespace's init and reports a fatal signal as 128+n (unshare cannot re-raise every one).
set +e
chroot --userspec=1000:1000 "$R" /usr/bin/prlimit --cpu="$CPU:$((CPU + 1))" --as="$AS" --nproc="$NPROC" --fsize="$FSIZE" --core=0 --nofile=256 \
  /usr/bin/env -i -C /sandbox PATH="$JAIL_PATH" HOME=/sandbox LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 "$@"
exit $?
