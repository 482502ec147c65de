# Sourced by scripts/run and scripts/test: the board page's client (webapp/, issue 32). Installs
# its npm packages exactly as package-lock.json pins them (`npm ci`) when the lock file changed,
# and builds the Activity's bundle into webapp/dist/ (git-ignored; a content-hashed file name)
# when a source changed. Without node and npm it says what is missing and goes on: only the board
# inside Discord (the Activity) needs them.
ensure_webapp() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        echo "note: node and npm are not installed, so the board inside Discord (the Activity) is" \
             "not built; everything else works. Debian: apt-get install nodejs npm" >&2
        return 0
    fi
    local lock stamp
    lock="$(sha256sum webapp/package-lock.json | cut -c1-16)"
    stamp="webapp/node_modules/.installed-$lock"
    if [ ! -f "$stamp" ]; then
        echo "Installing the board page's npm packages (webapp/package-lock.json changed)..." >&2
        if ! (cd webapp && npm ci --no-audit --no-fund --loglevel=error >&2); then
            echo "warning: npm ci failed in webapp/ (the npm registry unreachable?): the board" \
                 "inside Discord is not built; everything else works" >&2
            return 0
        fi
        touch "$stamp"
    fi
    local sources
    sources="$(cat webapp/package-lock.json webapp/build.mjs webapp/*.js | sha256sum | cut -c1-16)"
    if [ ! -f "webapp/dist/.built-$sources" ]; then
        if ! (cd webapp && node build.mjs >&2); then
            echo "warning: building webapp/ failed: the board inside Discord is not built" >&2
            return 0
        fi
        touch "webapp/dist/.built-$sources"
    fi
}
