// The store interface and its three implementations, as the composition root picks among them.
export { sliceOf, type BudgetStore, type LeaseRequest } from './lease.ts';
export { MemoryBudgetStore } from './memory-budget-store.ts';
export { PostgresBudgetStore } from './postgres-budget-store.ts';
export { RedisBudgetStore } from './redis-budget-store.ts';
