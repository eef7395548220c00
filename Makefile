# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run serve test test-browser lint bench backup restore

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

PORT ?= 8000

EMBEDDED_REDIS_PORT ?= 6380

# uvicorn (HTTP + websockets), the Celery workers, Celery beat and, unless REDIS_URL is set, an
# embedded Redis; SQLite unless DATABASE_URL is set.
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	mkdir -p .celery "$(PROMETHEUS_MULTIPROC_DIR)"
	rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	PATH="$(CURDIR)/$(BIN):$$PATH" WEB_PORT=$(PORT) EMBEDDED_REDIS_PORT=$(EMBEDDED_REDIS_PORT) \
	PROMETHEUS_MULTIPROC_DIR="$(PROMETHEUS_MULTIPROC_DIR)" \
	EMBEDDED_REDIS=$$([ -n "$$REDIS_URL" ] && echo 0 || echo 1) \
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:$(EMBEDDED_REDIS_PORT)/0} \
	$(BIN)/honcho start

# Production: several web processes on one port (uvicorn workers, one per core by default), a
# Celery worker and beat. Needs SECRET_KEY, DATABASE_URL and REDIS_URL (shared by every process
# and machine); see the README.
WEB_CONCURRENCY ?= $(shell nproc)
HOST ?= 127.0.0.1
# Every process (web workers, Celery) writes its metrics here and /metrics sums them; cleared
# at each start, so no figure of a process that has gone is counted (README, Operations).
PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/.celery/metrics

serve: install
	@test -n "$$SECRET_KEY" && test -n "$$DATABASE_URL" && test -n "$$REDIS_URL" || \
		{ echo "make serve needs SECRET_KEY, DATABASE_URL and REDIS_URL"; exit 2; }
	@test -n "$$TRUSTED_PROXIES" || { echo "make serve needs TRUSTED_PROXIES: how many proxies \
	stand in front and write X-Forwarded-For (1 behind one TLS terminator, 0 when clients connect \
	directly); without it every client behind a proxy would share the proxy's address"; exit 2; }
	DJANGO_SETTINGS_MODULE=wizardsite.settings.production $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=wizardsite.settings.production $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	mkdir -p .celery "$(PROMETHEUS_MULTIPROC_DIR)"
	rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	PATH="$(CURDIR)/$(BIN):$$PATH" DJANGO_SETTINGS_MODULE=wizardsite.settings.production \
	PORT=$(PORT) HOST=$(HOST) WEB_CONCURRENCY=$(WEB_CONCURRENCY) \
	PROMETHEUS_MULTIPROC_DIR="$(PROMETHEUS_MULTIPROC_DIR)" \
	$(BIN)/honcho -f Procfile.production start

# Backups of the PostgreSQL database at DATABASE_URL (see the README's "Backups"). pg_dump reads
# one snapshot: a move, one transaction, is in the file whole or not at all.
BACKUP_STAMP := $(shell date -u +%Y%m%dT%H%M%SZ)
BACKUP ?= backups/wizard-$(BACKUP_STAMP).dump

backup:
	@test -n "$$DATABASE_URL" || { echo "make backup needs DATABASE_URL (postgres://...)"; exit 2; }
	mkdir -p "$(dir $(BACKUP))"
	pg_dump --format=custom --no-owner --serializable-deferrable --file="$(BACKUP)" "$$DATABASE_URL"
	@echo "backup written to $(BACKUP)"

# Into an empty database (or over this project's own tables), then every game is replayed
# against its stored state. Stop the web processes and workers first.
restore:
	@test -n "$$DATABASE_URL" || { echo "make restore needs DATABASE_URL (postgres://...)"; exit 2; }
	@test -f "$(BACKUP)" || { echo "make restore needs BACKUP=<file made by make backup>"; exit 2; }
	pg_restore --clean --if-exists --no-owner --single-transaction --exit-on-error --dbname="$$DATABASE_URL" "$(BACKUP)"
	$(BIN)/python manage.py check_games

# The suite once, JOBS processes at a time (0: in this process), on DATABASE_URL's database
# (SQLite without it); then the browser tests (marked e2e; E2E=0 leaves them out, `make
# test-browser` runs them alone) two files at a time, each worker against a stack of its own.
# pytest exits 5 when it collects no test: say so rather than fail the build.
E2E ?= 1
JOBS ?= 2
PYTEST = { $(BIN)/python -m pytest $(1) || { rc=$$?; [ $$rc -eq 5 ] && echo "pytest: no tests collected"; [ $$rc -eq 5 ]; }; }
test: install
	$(call PYTEST,-m "not e2e" -n $(JOBS) $(PYTEST_ARGS))
	@[ "$(E2E)" = 0 ] || $(MAKE) --no-print-directory test-browser

test-browser: install
	$(call PYTEST,-m e2e -n 2 --dist loadfile $(PYTEST_ARGS))

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file /dev/null

bench: install
	$(BIN)/python bench/engine.py
