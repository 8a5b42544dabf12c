#!/usr/bin/env node
// The `wq` command; the code lives in dist/bundle/ after `npm run build` (build/bundle-cli.mjs).
import '../dist/bundle/wq.js';
