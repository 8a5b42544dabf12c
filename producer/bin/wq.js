#!/usr/bin/env node
// The `wq` command; the code lives in dist/ after `npm run build`.
import '../dist/cli/main.js';
