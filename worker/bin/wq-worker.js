#!/usr/bin/env node
// A worker process; the code lives in dist/ after `npm run build`.
import '../dist/main.js';
