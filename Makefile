# registry-sidecar: the two commands a newcomer needs are `make run` and
# `make test`; everything else here serves those two.

GO        ?= go
PYTHON    ?= python3
VENV      ?= .venv
PY        := $(VENV)/bin/python
# The MCP Python SDK 2.x client gets its own venv: .venv pins mcp<2 (the
# last line with a WebSocket client).
VENV2     ?= .venv-mcp2
PY2       := $(VENV2)/bin/python
NPM       ?= npm
NODE      ?= node
TSDIR     := tests/mcp-ts
BIN       := bin/registry-sidecar
LISTEN    ?= 127.0.0.1:8765
WORKSPACE ?= ./workspace
# ARGS are more flags for `make run` (registry-sidecar --help lists them).
ARGS      ?=
FUZZTIME  ?= 15s
BENCHTIME ?= 1s
# STATICCHECK is the Go linter `make lint` runs, at a version the Go proxy serves.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: corpus formula-corpus fuzz-security all build run test test-setup oracle-deps lint go-test go-test-race go-test-race-build go-test-race-other go-test-race-excelops-1 go-test-race-excelops-2 go-test-plain lint-steps golden golden-check docs docs-check venv py-test wheel wheels image qemu-deps wine-deps mcp-clients-test bench fuzz clean

all: build

## build: the sidecar binary, static (no cgo) so the platform wheel can carry it as is
build:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/registry-sidecar

## run: start the sidecar on $(LISTEN) with the spreadsheet tools over $(WORKSPACE), plus $(ARGS)
run: build
	mkdir -p $(WORKSPACE)
	./$(BIN) --listen $(LISTEN) --workspace $(WORKSPACE) $(ARGS)

## test: everything, Go and Python, end to end, in two phases of side-by-side steps
## (--output-sync keeps each step's output whole):
##   1. the Go tests (see go-test: excelops' -race pass in two halves, its pass without -race
##      only for the tests the -race pass skips) while the binary, the venvs, node modules,
##      qemu and wine install, which wait on the network rather than the CPU; LibreOffice
##      installs first, as the render tests need it;
##   2. py-test (pytest on PYTEST_WORKERS processes, then mypy) beside lint, fuzz-security,
##      golden-check, docs-check and mcp-clients-test (lint-steps), which take turns.
## Where the time went on this 2-core box before this layout (a clean clone, quiet: 14 min 9 s,
## 20 CPU-minutes): phase 1 about 7 min, bound by excelops' -race pass on one core (388-400 s;
## the excelops pass without -race 250 s beside it re-ran the 368 tests the -race pass had
## run), then about 7 min of phase 2 one step after the other: pytest 4 min (1,343 tests; 274
## CPU-s with the sidecars, builds and LibreOffice it drives: about one core), lint 1-2 min,
## fuzz-security 45 s. (CPU figures measured on a box loaded by other work.)
## This layout, a clean clone, measured on a box loaded by other engineers (load average 4-8):
## 12 min 57 s, 15.7 CPU-minutes (was 20): phase 1 8.6 min (excelops' -race halves 509 s and
## 514 s side by side, its pass without -race 349 s, cmd/registry-sidecar -race 196 s), phase 2
## 4.4 min (pytest on 2 workers 3 min 13 s; lint, fuzz-security and the checks beside it).
## At a load average of 8-20 the same run took 29 min; on a quiet box expect about 10 min.
## Since then (each step timed alone, CPU-seconds on a box at load average 12-19), phase 1
## is 106 CPU-s lighter: cmd/registry-sidecar builds its binary once and runs
## TestBoundedUnderUlimit without -race (52 -> 25 CPU-s), twenty more one-goroutine excelops
## tests run without -race only (77 -> 15), the leak check makes fewer calls (21 -> 6); and
## lint 38 CPU-s lighter (staticcheck for Windows and macOS on the packages that differ only).
## Then (CPU-seconds at load average 10-17): excelops' test envs register each tool on its
## first call instead of all of them (every newEnv compiled every schema: 2.6 s under -race),
## so its -race build and two halves take 167 CPU-s where they took 441 (the halves, one
## binary built once, split at TestN now); make image reuses the binaries make wheels linked;
## test_inspect_tools writes its generated workspace once per module (11 -> 4 CPU-s).
## A clean clone at a new path (so every package of the module compiles cold) with the venvs
## and node modules installed afresh, at load average 6-15: 23 min 44 s, 21.5 CPU-minutes.
test: oracle-deps
	$(MAKE) --no-print-directory -j5 --output-sync=target test-setup go-test-race go-test-plain
	$(MAKE) --no-print-directory -j2 --output-sync=target py-test lint-steps

## lint-steps: the checks of `make test` that run beside py-test (with -j2, one at a time
## while py-test holds the other job slot)
lint-steps: lint fuzz-security golden-check docs-check mcp-clients-test

## test-setup: what the Python, TypeScript, wheel and image tests need installed, one
## after the other (qemu-deps and wine-deps both run apt-get, which takes a lock), and the
## binary, so that the steps of phase 2 that run side by side find it built
test-setup:
	$(MAKE) --no-print-directory build venv $(BUILDVENV)/.installed $(VENV2)/.installed $(TSDIR)/node_modules/.installed
	$(MAKE) --no-print-directory qemu-deps
	$(MAKE) --no-print-directory wine-deps

## oracle-deps: LibreOffice 25.2 or newer headless and python3-uno, the formula oracle nobody
## here wrote (tests/oracle), with LibreOffice's image export filters (libreoffice-draw-nogui)
## that render_range needs for PNG, and CJK and emoji fonts (fonts-noto-cjk,
## fonts-noto-color-emoji) so renders draw glyphs. As root on Debian, apt-get installs what is
## missing (on bookworm from bookworm-backports, upgrading an older LibreOffice); elsewhere it
## says what is missing and the oracle suites skip (scripts/oracle_deps.sh)
oracle-deps:
	@sh scripts/oracle_deps.sh

## lint: gofmt, go vet, staticcheck, and ruff over every Python file (ruff.toml). staticcheck is
## pinned and installed once into build/tools (`go install pkg@version` fetches it from the Go
## module proxy, nothing is installed system-wide); that binary serves every run, deploy/image's
## too. go vet (every package) and staticcheck (the packages whose files differ from the host's,
## scripts/goos_packages.sh: every other one is the source the host's run checked) also run for
## Windows and macOS (tests included), so the released cross-builds never regress. A finding
## that is intended carries a `//lint:ignore CHECK reason` comment on the line above.
lint: venv
	$(VENV)/bin/ruff check .
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; git ls-files --others --exclude-standard '*.go' 2>/dev/null)); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOBIN=$(abspath build/tools) $(GO) install $(STATICCHECK)
	build/tools/staticcheck $$($(GO) list ./... | grep -v /third_party/)
	@for t in windows/amd64 darwin/arm64; do \
	  pkgs=$$(sh scripts/goos_packages.sh $$t) || exit 1; \
	  [ -z "$$pkgs" ] && continue; \
	  echo "GOOS=$${t%/*} GOARCH=$${t#*/} build/tools/staticcheck" $$pkgs; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} build/tools/staticcheck $$pkgs || exit 1; \
	done
	cd deploy/image && $(GO) vet ./... && $(abspath build/tools/staticcheck) ./...
	sh scripts/excelize_patch.sh --check

## go-test: every Go test once, in two passes, and every package's concurrency tests
## under -race:
##   go-test-race: every package under -race. In excelops the slow tests that drive the
##     Service from one goroutine, each call finished before the next (skipUnderRace in
##     excelops/internal/tools/race_split_test.go), skip: the race detector has no two goroutines to watch
##     there, and they cost 3-10x under it (the SIGKILL loop alone: 700 s with -race against
##     146 s without, at a load average near 10).
##     REGISTRY_SIDECAR_RACE_ALL=1 runs them under -race too. excelops runs in two halves
##     (tests from TestN on, and the rest; one test binary built for both), so that
##     `make -j` spreads its -race pass, the longest step of `make test`, over two cores.
##     cmd/registry-sidecar's tests whose work is the binary (built without -race) skip
##     the same way (TestBoundedUnderUlimit: its 500k-row input alone cost minutes under -race).
##   go-test-plain: those tests alone, without -race (REGISTRY_SIDECAR_RACE_SKIPPED_ONLY=1,
##     internal/racesplit); the slow self-contained ones run in parallel with each other
##     (t.Parallel), after the rest. `go test ./excelops/internal/tools/` runs all of it.
## The passes are independent: `make -j4 go-test` runs them side by side.
go-test: go-test-race go-test-plain

# EXCELOPS_RACE_HALF picks excelops' second -race half; the first half skips it.
EXCELOPS_RACE_HALF := ^Test[N-Z]
# EXCELOPS_RACE_TEST is excelops' -race test binary, built once for both halves: two
# `go test -race ./excelops/internal/tools/` side by side would each compile the package and its
# dependencies under -race (the build cache shares nothing between two builds at once).
EXCELOPS_RACE_TEST := build/test/excelops-race.test

go-test-race: go-test-race-other go-test-race-excelops-1 go-test-race-excelops-2

# go-test-race-build compiles what every -race pass shares first (excelops' test binary
# links nearly every package of the module), so the passes after it compile only their own.
go-test-race-build:
	@mkdir -p $(dir $(EXCELOPS_RACE_TEST))
	$(GO) test -race -c -o $(EXCELOPS_RACE_TEST) ./excelops/internal/tools/

go-test-race-other: go-test-race-build
	$(GO) test -race -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/excelops/internal/tools$$')

# The halves run the binary as `go test` would: in the package's folder.
go-test-race-excelops-1: go-test-race-build
	cd excelops/internal/tools && $(abspath $(EXCELOPS_RACE_TEST)) -test.count=1 -test.timeout=30m -test.skip='$(EXCELOPS_RACE_HALF)'

go-test-race-excelops-2: go-test-race-build
	cd excelops/internal/tools && $(abspath $(EXCELOPS_RACE_TEST)) -test.count=1 -test.timeout=30m -test.run='$(EXCELOPS_RACE_HALF)'

go-test-plain:
	REGISTRY_SIDECAR_RACE_SKIPPED_ONLY=1 $(GO) test -count=1 -timeout 30m ./excelops/internal/tools/ ./cmd/registry-sidecar/

## golden: rewrite every golden file from Python (json.dumps, and the excelmanus oracle of tests/vectors)
golden:
	$(PYTHON) tests/vectors/generate.py
	$(GO) test ./errorsjson/... ./registry/... -run Golden -update

golden-check:
	$(PYTHON) tests/vectors/generate.py --check

## docs: regenerate docs/TOOLS.md from the registered tools
docs: build
	./$(BIN) tools --format markdown > docs/TOOLS.md

docs-check: build
	@./$(BIN) tools --format markdown | diff -u docs/TOOLS.md - \
	  || { echo "docs/TOOLS.md is stale: run 'make docs'"; exit 1; }

$(VENV)/.installed: tests/requirements.txt adapters/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r tests/requirements.txt
	$(PY) -m pip install --quiet -e ./adapters/python
	touch $@

venv: $(VENV)/.installed

# The build venv holds only the PEP 517 frontend and the backend, so making a
# wheel never waits for the test venv.
BUILDVENV ?= .venv-build
BUILDPY   := $(BUILDVENV)/bin/python

$(BUILDVENV)/.installed: adapters/python/build-requirements.txt
	$(PYTHON) -m venv $(BUILDVENV)
	$(BUILDPY) -m pip install --quiet --disable-pip-version-check -r adapters/python/build-requirements.txt
	touch $@

## wheel: the platform wheel of the Python package, carrying the binary built from this checkout
wheel: build $(BUILDVENV)/.installed
	rm -rf dist/registry_sidecar-*.whl adapters/python/build
	@mkdir -p build
	@env -u PYTHONDONTWRITEBYTECODE REGISTRY_SIDECAR_WHEEL_BINARY=$(abspath $(BIN)) \
	  $(BUILDPY) -m build --wheel --no-isolation --outdir dist ./adapters/python >build/wheel.log 2>&1 \
	  || { cat build/wheel.log; exit 1; }
	@if grep -i -E 'warn|deprecat' build/wheel.log; then echo "make wheel: the build warned (build/wheel.log)"; exit 1; fi
	@ls dist/registry_sidecar-*.whl

## wheels: the platform wheels of every released platform and the sdist, into dist/release:
## Linux x86_64 and aarch64 (manylinux and musllinux), macOS x86_64 and arm64, Windows x86_64,
## each carrying the static binary Go cross-compiles for it (cgo off); the sdist carries the Go
## sources and builds the binary where Go exists.
RELEASE   ?= dist/release
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
RELEASE_LDFLAGS := -s -w
wheels: $(BUILDVENV)/.installed
	rm -rf $(RELEASE) build/release adapters/python/build
	@mkdir -p $(RELEASE) build/release
	@for t in $(PLATFORMS); do \
	  os=$${t%/*}; arch=$${t#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
	  out=build/release/$$os-$$arch/registry-sidecar$$ext; \
	  echo "== $$t"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags='$(RELEASE_LDFLAGS)' -o $$out ./cmd/registry-sidecar || exit 1; \
	  env -u PYTHONDONTWRITEBYTECODE REGISTRY_SIDECAR_WHEEL_BINARY=$(abspath .)/$$out REGISTRY_SIDECAR_WHEEL_TARGET=$$t \
	    $(BUILDPY) -m build --wheel --no-isolation --outdir $(RELEASE) ./adapters/python >build/release/wheel.log 2>&1 \
	    || { cat build/release/wheel.log; exit 1; }; \
	done
	@env -u PYTHONDONTWRITEBYTECODE $(BUILDPY) -m build --sdist --no-isolation --outdir $(RELEASE) ./adapters/python \
	  >build/release/sdist.log 2>&1 || { cat build/release/sdist.log; exit 1; }
	@ls -l $(RELEASE)

## image: the container image as an OCI image layout tar (dist/registry-sidecar-image.tar), for
## IMAGE_PLATFORMS, with no container engine and no base image to pull: deploy/image (its own Go
## module, on go-containerregistry) puts each static binary on an empty base, run as uid 65532,
## /workspace a volume, ports and token from REGISTRY_SIDECAR_* variables (deploy/kubernetes).
## The binaries go where `make wheels` puts the same builds (same flags), so after it `go build`
## finds them up to date and links nothing again
IMAGE           ?= dist/registry-sidecar-image.tar
IMAGE_PLATFORMS ?= linux/amd64 linux/arm64
VERSION         := $(shell sed -n 's/^[[:space:]]*version = "\(.*\)"$$/\1/p' cmd/registry-sidecar/version.go)
image:
	@bins=; for t in $(IMAGE_PLATFORMS); do \
	  out=build/release/$${t%/*}-$${t#*/}/registry-sidecar; \
	  CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -trimpath -ldflags='$(RELEASE_LDFLAGS)' -o $$out ./cmd/registry-sidecar || exit 1; \
	  bins="$$bins -binary $$t=$(abspath .)/$$out"; \
	done; \
	cd deploy/image && $(GO) run . -o $(abspath $(IMAGE)) -version $(VERSION) $$bins
	@ls -l $(IMAGE)

## qemu-deps: Debian's qemu-user-static, which runs the aarch64 wheel's binary in the wheels
## test; installed with apt-get when running as root, else that test skips and says why
qemu-deps:
	@if command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "qemu-deps: installing qemu-user-static"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static; } \
	    >/tmp/registry-sidecar-qemu-deps.log 2>&1 \
	  || echo "qemu-deps: apt-get failed (see /tmp/registry-sidecar-qemu-deps.log); the aarch64 test will skip"; \
	else echo "qemu-deps: not root or no apt-get; the aarch64 test will skip"; fi

## wine-deps: Debian's wine64, which runs the Windows wheel's binary in the wheels test, and
## mingw-w64, which builds the stand-in DLL that wine 8 lacks (tests/python/wine); installed with
## apt-get when running as root, else that test skips and says why
wine-deps:
	@if { command -v wine64 || command -v wine || test -x /usr/lib/wine/wine64; } >/dev/null 2>&1 \
	  && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "wine-deps: installing wine64 and gcc-mingw-w64-x86-64-win32"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      wine64 gcc-mingw-w64-x86-64-win32; } >/tmp/registry-sidecar-wine-deps.log 2>&1 \
	  || echo "wine-deps: apt-get failed (see /tmp/registry-sidecar-wine-deps.log); the Windows test will skip"; \
	else echo "wine-deps: not root or no apt-get; the Windows test will skip"; fi

## py-test: the Python suites on PYTEST_WORKERS pytest processes (pytest-xdist; each has its
## own session sidecar and LibreOffice oracle, with a private profile), then mypy. What they
## need is made first, one after the other: wheel and wheels share adapters/python/build, and
## qemu-deps and wine-deps both take apt-get's lock.
PYTEST_WORKERS ?= 2
py-test: venv
	$(MAKE) --no-print-directory build
	$(MAKE) --no-print-directory wheel
	$(MAKE) --no-print-directory wheels
	$(MAKE) --no-print-directory image
	$(MAKE) --no-print-directory qemu-deps
	$(MAKE) --no-print-directory wine-deps
	REGISTRY_SIDECAR_BIN=$(abspath $(BIN)) REGISTRY_SIDECAR_WHEEL=$$(ls $(abspath dist)/registry_sidecar-*.whl) \
	  REGISTRY_SIDECAR_RELEASE=$(abspath $(RELEASE)) REGISTRY_SIDECAR_IMAGE=$(abspath $(IMAGE)) \
	  $(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup adapters/python/tests tests/python tests/security tests/corpus
	$(PY) -m mypy --strict adapters/python/src/registry_sidecar
	$(PY) -m mypy --strict tests/corpus
	cd tests/oracle && $(abspath $(PY)) -m mypy --strict --follow-imports=silent formula_corpus.py formula_corpus_gen.py \
	  formula_corpus_table.py formula_corpus_functions.py
	MYPYPATH=adapters/python/tests $(PY) -m mypy --strict tests/bench

$(VENV2)/.installed: tests/python_mcp2/requirements.txt
	$(PYTHON) -m venv $(VENV2)
	$(PY2) -m pip install --quiet --upgrade pip
	$(PY2) -m pip install --quiet -r tests/python_mcp2/requirements.txt
	touch $@

$(TSDIR)/node_modules/.installed: $(TSDIR)/package.json $(TSDIR)/package-lock.json
	cd $(TSDIR) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

## mcp-clients-test: the official MCP clients nobody here wrote on the MCP doors:
## the Python SDK 2.x (streamable HTTP) and the TypeScript SDK run by node
## (stdio and streamable HTTP); the Python 1.x clients run in py-test.
mcp-clients-test: build $(VENV2)/.installed $(TSDIR)/node_modules/.installed
	REGISTRY_SIDECAR_BIN=$(abspath $(BIN)) $(PY2) -m pytest -q -p no:cacheprovider tests/python_mcp2
	cd $(TSDIR) && REGISTRY_SIDECAR_BIN=$(abspath $(BIN)) $(NODE) --test

## corpus: the round-trip harness (tests/corpus) over the full corpus of Excel-made workbooks in
## CORPUS when that folder exists (it is not in the repository; py-test runs the committed sample):
## per tool, the files with an unexpected changed zip entry and the formula values that drifted,
## every file's findings in build/corpus-report.json
CORPUS ?= ../shared/corpus/excel-made
CORPUS_JOBS ?= 2
corpus: build
	@if [ -d "$(CORPUS)" ]; then \
	  mkdir -p build; \
	  REGISTRY_SIDECAR_BIN=$(abspath $(BIN)) $(PYTHON) tests/corpus/corpus.py --jobs $(CORPUS_JOBS) \
	    --report build/corpus-report.json "$(CORPUS)"; \
	else echo "corpus: $(CORPUS) does not exist; set CORPUS=folder of .xlsx files"; fi

## formula-corpus: every function excelize computes against LibreOffice, thousands of generated
## formulas in one workbook (tests/oracle/formula_corpus.py): the table per function, and the
## failing functions with their first failure (tests/python/test_formula_corpus.py holds the
## pass rates to tests/oracle/formula_corpus_baseline.json in py-test)
formula-corpus: build venv
	$(PY) tests/oracle/formula_corpus.py --report --bin $(abspath $(BIN))

## bench: Go benchmarks, then the Python peers measured in the same run
bench: build venv
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...
	@for f in tests/bench/bench_*.py; do \
	  [ -e "$$f" ] || continue; \
	  echo "== $$f"; REGISTRY_SIDECAR_BIN=$(abspath $(BIN)) $(PY) $$f || exit 1; \
	done

## fuzz-security: the fuzz targets of the security wall (the workspace path layer and the
## render sanitiser), each for SECURITY_FUZZTIME, in every `make test` (see SECURITY.md).
## Go 1.26's fuzz coordinator can fail a run with a bare "context deadline exceeded" as
## -fuzztime ends (go.dev/issue/75804, fixed in Go 1.27): such a run, with no failing input
## written, is run once more; any other failure, or that one twice, fails the step.
SECURITY_FUZZTIME ?= 10s
SECURITY_FUZZ := ./excelops/internal/workspace:FuzzWorkspacePath ./excelops/internal/workspace:FuzzResolve ./excelops/internal/rendersafe:FuzzRenderSanitize
fuzz-security:
	@mkdir -p build; for pt in $(SECURITY_FUZZ); do \
	  p=$${pt%%:*}; t=$${pt#*:}; log=build/fuzz-$$t.log; \
	  echo "== fuzz $$p $$t ($(SECURITY_FUZZTIME))"; \
	  fuzz() { $(GO) test $$p -run '^$$' -fuzz "^$$t\$$" -fuzztime $(SECURITY_FUZZTIME) >$$log 2>&1; }; \
	  deadline_race() { grep -q '^    context deadline exceeded$$' $$log && ! grep -q 'Failing input written' $$log; }; \
	  fuzz || { deadline_race && echo "   the fuzz coordinator's deadline race (go.dev/issue/75804): once more" && fuzz; } \
	    || { cat $$log; exit 1; }; tail -1 $$log; \
	done

## fuzz: run every fuzz target for FUZZTIME
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

clean:
	rm -rf bin dist build adapters/python/build $(VENV) $(VENV2) $(BUILDVENV) $(TSDIR)/node_modules
