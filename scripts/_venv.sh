# Sourced by scripts/run and scripts/test: make .venv and install the project into it, but only
# when .venv is new or pyproject.toml changed since the last install (a stamp file remembers).
ensure_venv() {
    if [ ! -x .venv/bin/python ]; then
        python3 -m venv .venv
    fi
    local stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
    if [ ! -f "$stamp" ]; then
        echo "Installing the project and its dependencies into .venv (first run, or pyproject.toml changed)..." >&2
        .venv/bin/python -m pip install --quiet --upgrade pip
        .venv/bin/python -m pip install --quiet -e ".[dev]"
        rm -f .venv/.installed-*
        touch "$stamp"
    fi
}
