// A full garbage collection on demand, for the few places that know better than V8's
// heuristics when a lot just became garbage. Node has no public call for it: `gc` is exposed
// once, at the first use, by the flag made for it (in this process and its threads alike).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | undefined;

/** Collects now, in full (young and old generation); milliseconds, whatever the heap holds. */
export function collectFully(): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
}
