// Every fast-check property of a run starts from one seed, so that CI gives the same verdict on
// every run of the same code: an unseeded property once drew a counterexample in CI that no run
// before had met, and a red run does not land. `FC_SEED=N` replays a run; `FC_SEED=random`
// explores new cases (a counterexample found that way becomes a fixed test case).
import fc from 'fast-check';

const given = process.env['FC_SEED'];
const seed = given === 'random' ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(given ?? 20261126);
if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be a whole number or "random", not "${given}"`);
fc.configureGlobal({ seed });
