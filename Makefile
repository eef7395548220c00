# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run serve test test-browser lint bench

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

PORT ?= 8000

EMBEDDED_REDIS_PORT ?= 6380

# Daphne (HTTP + websockets), a Celery worker, Celery beat and, unless REDIS_URL is set, an
# embedded Redis; SQLite unless DATABASE_URL is set.
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	mkdir -p .celery
	PATH="$(CURDIR)/$(BIN):$$PATH" WEB_PORT=$(PORT) EMBEDDED_REDIS_PORT=$(EMBEDDED_REDIS_PORT) \
	EMBEDDED_REDIS=$$([ -n "$$REDIS_URL" ] && echo 0 || echo 1) \
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:$(EMBEDDED_REDIS_PORT)/0} \
	$(BIN)/honcho start

# Production: several web processes on one port (uvicorn workers, one per core by default), a
# Celery worker and beat. Needs SECRET_KEY, DATABASE_URL and REDIS_URL (shared by every process
# and machine); see the README.
WEB_CONCURRENCY ?= $(shell nproc)
HOST ?= 0.0.0.0

serve: install
	@test -n "$$SECRET_KEY" && test -n "$$DATABASE_URL" && test -n "$$REDIS_URL" || \
		{ echo "make serve needs SECRET_KEY, DATABASE_URL and REDIS_URL"; exit 2; }
	DJANGO_SETTINGS_MODULE=wizardsite.settings.production $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=wizardsite.settings.production $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	mkdir -p .celery
	PATH="$(CURDIR)/$(BIN):$$PATH" DJANGO_SETTINGS_MODULE=wizardsite.settings.production \
	PORT=$(PORT) HOST=$(HOST) WEB_CONCURRENCY=$(WEB_CONCURRENCY) \
	$(BIN)/honcho -f Procfile.production start

# The suite, then the browser tests (marked e2e; E2E=0 leaves them out, `make test-browser`
# runs them alone) two files at a time: they mostly wait on the pages' animations. pytest exits
# 5 when it collects no test: say so rather than fail the build.
E2E ?= 1
PYTEST = { $(BIN)/python -m pytest $(1) || { rc=$$?; [ $$rc -eq 5 ] && echo "pytest: no tests collected"; [ $$rc -eq 5 ]; }; }
test: install
	$(call PYTEST,-m "not e2e" $(PYTEST_ARGS))
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
