import { describe, expect, it } from "vitest";
import { DetourError, ERROR_CODES, ModelSelectionError } from "../core/errors.js";
import { ModelNameError, modelAliases, parseConfig, requireModelName } from "./index.js";

describe("ModelNameError", () => {
  const { config } = parseConfig({}, "test");

  it("is the model-selection error with the names it could have meant: one code, caught as a ModelSelectionError", () => {
    let thrown: unknown;
    try {
      requireModelName(config, modelAliases(config), "nosuchprovider/x", "--model");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ModelNameError);
    expect(thrown).toBeInstanceOf(ModelSelectionError);
    expect(ModelSelectionError.isInstance(thrown)).toBe(true);
    expect(DetourError.isInstance(thrown)).toBe(true);
    const error = thrown as ModelNameError;
    expect(error.code).toBe(ERROR_CODES.modelSelection);
    expect(error.name).toBe("ModelNameError");
    expect(error.input).toBe("nosuchprovider/x");
    expect(error.origin).toBe("--model");
    expect(Array.isArray(error.candidates)).toBe(true);
    expect(error.message).toMatch(/^Cannot use model "nosuchprovider\/x" \(--model\): .+\.$/);
  });

  it("is not what a plain model-selection error is", () => {
    const plain = new ModelSelectionError({ origin: "request model" });
    expect(ModelNameError.isInstance(plain)).toBe(false);
    expect(plain.code).toBe(ERROR_CODES.modelSelection);
  });
});
