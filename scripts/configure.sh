# Sourced by scripts/test.sh and scripts/fuzz.sh: `configure DIR [-Dname=value ...]` sets
# up DIR, or reconfigures it when a previous run left it there, with EVERY option below
# passed explicitly: first these defaults, then the stage's own values. A reused build
# directory therefore never keeps a value that an earlier run (or an older version of the
# script) set and this stage does not ask for: reconfiguring keeps every option it is not
# given. Options the script never sets (a prefix, c_args) are left to the developer.
configure() {
  local dir=$1
  shift
  local -A opt=(
    [buildtype]=debugoptimized [werror]=false [b_sanitize]=none [b_lundef]=true
    [b_coverage]=false [tests]=true [tools]=true [bench]=true [docs]=auto
    [fuzzing]=false [abi_check]=auto [bindings]=auto
  )
  local a
  for a in "$@"; do
    case $a in
      -D*=*) a=${a#-D}; opt[${a%%=*}]=${a#*=} ;;
      *) echo "configure: options are -Dname=value, not '$a'" >&2; return 2 ;;
    esac
  done
  local args=() k
  for k in $(printf '%s\n' "${!opt[@]}" | sort); do args+=("-D$k=${opt[$k]}"); done
  if [ -f "$dir/build.ninja" ]; then
    # `meson configure`, not `meson setup --reconfigure`: the latter ignores new values of
    # base options (b_sanitize, b_coverage, b_lundef) with the Meson in Debian 12 (1.0).
    # The next `meson compile` regenerates the build with the new values.
    meson configure "$dir" "${args[@]}" >/dev/null
  else
    meson setup "$dir" "${args[@]}" >/dev/null
  fi
}
