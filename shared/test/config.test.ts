// The configuration schema: WQ_MAX_UNIT_BYTES (the memory cap of one unit).
import { describe, expect, it } from 'vitest';
import { compileConfig, DEFAULT_MAX_BYTES } from '../src/index.js';

describe('when WQ_MAX_UNIT_BYTES is set', () => {
  it('takes bytes, or a binary K/M/G/T suffix', () => {
    expect(compileConfig({}).maxUnitBytes).toBe(DEFAULT_MAX_BYTES);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '4096' }).maxUnitBytes).toBe(4096);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '512M' }).maxUnitBytes).toBe(536_870_912);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '1.5GiB' }).maxUnitBytes).toBe(1_610_612_736);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '2g' }).maxUnitBytes).toBe(2_147_483_648);
  });

  it('refuses anything else, naming the variable and what is allowed', () => {
    for (const bad of ['lots', '0', '-5', '12X', '1e9']) {
      expect(() => compileConfig({ WQ_MAX_UNIT_BYTES: bad })).toThrow(
        `WQ_MAX_UNIT_BYTES: "${bad}" is not allowed; expected a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M`,
      );
    }
  });
});
