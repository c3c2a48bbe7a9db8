import { runStoreContract } from "../store-contract.js";
import { MemoryStateStore } from "./memory-store.js";

runStoreContract("memory", async () => {
  const store = new MemoryStateStore();
  return { store, cleanup: () => store.close() };
});
