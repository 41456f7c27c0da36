# AgentTab: the README's two commands are `make demo` and `make test`.
# Both install what is missing first (scripts/deps.sh).

GO ?= go
EXT_TEST_DIR := $(shell mktemp -d -u /tmp/agenttab-ext-test.XXXXXX)

.PHONY: test demo deps vet go-test ext-test tsc generate build

test: deps vet tsc ext-test go-test

demo: deps build
	./bin/agenttab demo

deps:
	@scripts/deps.sh

build:
	$(GO) build -o bin/agenttab ./cmd/agenttab

vet:
	$(GO) vet ./...

# go test includes the end-to-end suite (e2e/), which drives a real Chromium.
go-test:
	$(GO) test -timeout 20m ./...

# The extension's unit tests: bundled by esbuild's Go API, run by node:test.
ext-test:
	$(GO) run ./internal/extbuild/gen -tests $(EXT_TEST_DIR)
	node --test $(EXT_TEST_DIR)
	rm -rf $(EXT_TEST_DIR)

# Builds every layer project extension/tsconfig.json references (their
# references are the import fences; declarations go to
# extension/node_modules/.cache/tsc), then type-checks the unit tests.
tsc:
	npx --prefix extension tsc -b extension

# Regenerates extension/src/protocol/generated.ts and extension/dist.
generate:
	$(GO) generate ./extension
