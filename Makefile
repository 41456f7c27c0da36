# AgentTab: the README's two commands are `make demo` and `make test`.
# Both install what is missing first (scripts/deps.sh).

GO ?= go
EXT_TEST_DIR := $(shell mktemp -d -u /tmp/agenttab-ext-test.XXXXXX)
ADAPTERS_TEST_DIR := $(shell mktemp -d -u /tmp/agenttab-adapters-test.XXXXXX)

.PHONY: test demo deps vet go-test ext-test tsc generate build cross adapters-tsc adapters-test

test: deps vet cross tsc adapters-tsc ext-test adapters-test go-test

demo: deps build
	./bin/agenttab demo

deps:
	@scripts/deps.sh

build:
	$(GO) build -o bin/agenttab ./cmd/agenttab

vet:
	$(GO) vet ./...

# Cross-builds (issue 15): Windows and macOS compile, and vet (test files
# included) passes there. On Windows, e2e is left out (its harness drives
# Linux Chromium and signals processes with syscall.Kill), and so is
# internal/host from vet (its FIFO test calls syscall.Mkfifo).
CROSS_WINDOWS = $(shell $(GO) list ./... | grep -v '/e2e')
cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null $(CROSS_WINDOWS)
	GOOS=windows GOARCH=amd64 $(GO) vet $(filter-out %/internal/host,$(CROSS_WINDOWS))
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

# go test includes the end-to-end suite (e2e/), which drives a real Chromium.
go-test:
	$(GO) test -timeout 20m ./...

# The extension's unit tests: bundled by esbuild's Go API, run by node:test.
ext-test:
	$(GO) run ./internal/extbuild/gen -tests $(EXT_TEST_DIR)
	node --test $(EXT_TEST_DIR)
	rm -rf $(EXT_TEST_DIR)

# The adapters (adapters/core, the shared Core client; adapters/pi and
# adapters/omp, the Pi and OMP extensions, against each agent's own types):
# strict tsc, and the Core client's
# unit tests bundled by esbuild's Go API (internal/adapterbuild) for node:test.
adapters-tsc:
	npx --prefix adapters/core tsc -p adapters/core
	npx --prefix adapters/pi tsc -p adapters/pi
	npx --prefix adapters/omp tsc -p adapters/omp

adapters-test:
	$(GO) run ./internal/adapterbuild/gen -tests $(ADAPTERS_TEST_DIR)
	node --test $(ADAPTERS_TEST_DIR)
	rm -rf $(ADAPTERS_TEST_DIR)

# Builds every layer project extension/tsconfig.json references (their
# references are the import fences; declarations go to
# extension/node_modules/.cache/tsc), then type-checks the unit tests.
tsc:
	npx --prefix extension tsc -b extension

# Regenerates extension/src/protocol/generated.ts and extension/dist.
generate:
	$(GO) generate ./extension
