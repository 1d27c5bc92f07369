import { FieldApi, FormApi } from "@tanstack/react-form";
import type * as z from "zod";
import { describe, expect, it } from "vitest";

import { addGroupSchema, GROUP_NAME_REQUIRED } from "#src/features/groups/groups.schemas";
import { addPermissionSchema, PERMISSION_KEY_RULE } from "#src/features/permissions/permissions.schemas";
import { failsLiveCheck, firstErrorText, liveCheck, problemText, schemaProblem } from "./form-errors";

// docs/decisions/048: the rules every back-office form follows (web/lib/form.tsx), checked on TanStack Form itself.

describe("firstErrorText", () => {
  it("reads a check's text, a schema's issues and a schema's issues by field", () => {
    expect(firstErrorText([])).toBeNull();
    expect(firstErrorText([undefined, "Old password is required"])).toBe("Old password is required");
    expect(firstErrorText([[{ message: "Code is required" }]])).toBe("Code is required");
    expect(
      firstErrorText([{ key: [{ message: PERMISSION_KEY_RULE, path: ["key"] }], description: [{ message: "Description is too long" }] }]),
    ).toBe(PERMISSION_KEY_RULE);
  });

  it("skips what holds no text", () => {
    expect(firstErrorText(["", null, {}, [], { name: [] }, "Passwords do not match"])).toBe("Passwords do not match");
  });
});

describe("schemaProblem", () => {
  it("answers with the server schema's first issue, or undefined when it passes", () => {
    expect(schemaProblem(addGroupSchema, { name: "   ", description: "" })?.message).toBe(GROUP_NAME_REQUIRED);
    expect(schemaProblem(addPermissionSchema, { key: "export", description: "" })?.message).toBe(PERMISSION_KEY_RULE);
    expect(schemaProblem(addGroupSchema, { name: "Packers", description: "" })).toBeUndefined();
  });
});

describe("problemText", () => {
  it("shows a schema issue by the code the server would answer with, in the user's language (docs/decisions/062)", () => {
    const issue = schemaProblem(addPermissionSchema, { key: "export", description: "" })!;
    expect(problemText(issue, "nl")).toBe("De sleutel van een recht heeft de vorm prefix.action");
    expect(problemText(issue, "en")).toBe(PERMISSION_KEY_RULE);
    expect(problemText(issue, null)).toBe(PERMISSION_KEY_RULE);
    const long = schemaProblem(addGroupSchema, { name: "x".repeat(65), description: "" })!;
    expect(problemText(long, "nl")).toBe("Naam is te lang (hoogstens 64 tekens)");
    // A check's own text is in the user's language already.
    expect(problemText("De wachtwoorden zijn niet gelijk", "nl")).toBe("De wachtwoorden zijn niet gelijk");
  });
});

// A form holds what the server's schema takes, so TanStack Form can check it with that schema.
const blankGroup = (): z.input<typeof addGroupSchema> => ({ name: "", description: "" });
const permission = (key: string): z.input<typeof addPermissionSchema> => ({ key, description: "" });

describe("a live check", () => {
  it("blocks sending from the start and while it fails, and only then", () => {
    // As useAppForm and AppField do it, without React.
    const form = new FormApi({ defaultValues: blankGroup(), validators: liveCheck(addGroupSchema) });
    const name = new FieldApi({ form, name: "name" });
    form.mount();
    name.mount();
    expect(failsLiveCheck(form.state.errorMap)).toBe(true);
    name.handleChange("   ");
    expect(failsLiveCheck(form.state.errorMap)).toBe(true);
    name.handleChange("Packers");
    expect(failsLiveCheck(form.state.errorMap)).toBe(false);
    name.handleChange("");
    expect(failsLiveCheck(form.state.errorMap)).toBe(true);
  });
});

describe("a check on submit", () => {
  it("stops the call, leaves sending possible, and its text goes when the field changes", async () => {
    const sent: unknown[] = [];
    const refused: (string | null)[] = [];
    const form = new FormApi({
      defaultValues: permission("export"),
      validators: { onSubmit: addPermissionSchema },
      onSubmitInvalid: ({ formApi }) => refused.push(firstErrorText(formApi.state.errors)),
      onSubmit: ({ value }) => void sent.push(value),
    });
    const key = new FieldApi({ form, name: "key" });
    form.mount();
    key.mount();
    await form.handleSubmit();
    expect(refused).toEqual([PERMISSION_KEY_RULE]);
    expect(failsLiveCheck(form.state.errorMap)).toBe(false);
    // Sent again unchanged: refused again, with the same text.
    await form.handleSubmit();
    expect(refused).toEqual([PERMISSION_KEY_RULE, PERMISSION_KEY_RULE]);
    key.handleChange("orders.export");
    expect(form.state.errors).toEqual([]);
    await form.handleSubmit();
    expect(sent).toEqual([{ key: "orders.export", description: "" }]);
  });
});
