# hpatch-router — every target installs what it needs from this repository's own files.
PREFIX ?= $(HOME)/.local
LIBDIR = $(PREFIX)/lib/hpatch-router
NODE_RUN = node --no-node-snapshot
ROUTER_ARGS ?=

.PHONY: deps build typecheck test run install bench clean

# npm ci only when the lock changed: it rebuilds isolated-vm from source. A node_modules that is a
# symlink belongs to another checkout (a git worktree sharing it): npm ci would empty that one.
node_modules/.package-lock.json: package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a symlink: not running npm ci here (run it in $$(dirname "$$(readlink -f node_modules)"))"; \
	else npm ci --no-audit --no-fund && touch $@; fi

deps: node_modules/.package-lock.json

# build-interp also builds the interpreter's startup snapshot for this node binary (skipped with a
# warning if that fails: `hpatch-router interp` then starts through a V8 code cache).
build: deps
	node scripts/build.mjs
	node scripts/build-interp.mjs

typecheck: deps
	npx tsc --noEmit -p tsconfig.json

test: build typecheck
	npx mocha --reporter ./test/support/summary-reporter.cjs 'test/**/*.test.ts'

run: build
	$(NODE_RUN) dist/hpatch-router.mjs $(ROUTER_ARGS)

bench: build
	env -u NODE_EXTRA_CA_CERTS $(NODE_RUN) --import=tsx test/bench/run.ts

install: build
	rm -rf "$(LIBDIR).new"
	mkdir -p "$(LIBDIR).new" "$(PREFIX)/bin"
	cp -R dist bin package.json package-lock.json node_modules "$(LIBDIR).new/"
	# The built-in shell declaration the router loads through its plugin host (make build regenerated it).
	mkdir -p "$(LIBDIR).new/plugins" && cp plugins/shell.mjs "$(LIBDIR).new/plugins/"
	# The plugin SDK as a tarball: `hpatch-router plugins new` projects install it without a checkout.
	node scripts/pack-sdk.mjs "$(LIBDIR).new/sdk" >/dev/null
	# The launcher trusts the interpreter's startup snapshot only while its stamp has the node binary's mtime.
	if [ -f dist/interp.blob.stamp ]; then touch -r dist/interp.blob.stamp "$(LIBDIR).new/dist/interp.blob.stamp"; fi
	# The native modules were built for this machine by `make deps`: copy them, then drop dev-only packages.
	cd "$(LIBDIR).new" && npm prune --omit=dev --no-audit --no-fund >/dev/null
	rm -rf "$(LIBDIR)" && mv "$(LIBDIR).new" "$(LIBDIR)"
	ln -sfn "$(LIBDIR)/bin/hpatch-router" "$(PREFIX)/bin/hpatch-router"
	# The fixed `shell` locator: a copy, so no later install or router start changes what Codex runs.
	install -m 755 bin/shell "$(PREFIX)/bin/shell.new" && mv -f "$(PREFIX)/bin/shell.new" "$(PREFIX)/bin/shell"
	@echo "installed $(PREFIX)/bin/hpatch-router and $(PREFIX)/bin/shell"

clean:
	rm -rf dist .test-tmp
