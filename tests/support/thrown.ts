import { expect } from 'vitest';

/** The error `run` throws, checked to be a `type`; the test fails when nothing is thrown. */
export function errorThrownBy<E extends Error>(
  run: () => unknown,
  type: abstract new (...args: never[]) => E,
): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
