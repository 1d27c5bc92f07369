import { FieldApi, FormApi } from "@tanstack/react-form";
import type * as z from "zod";
import { describe, expect, it } from "vitest";

import { addGroupSchema, GROUP_NAME_REQUIRED } from "../../src/features/groups/groups.schemas";
import { addPermissionSchema, PERMISSION_KEY_RULE } from "../../src/features/permissions/permissions.schemas";
import { failsLiveCheck, firstErrorText, liveCheck, schemaProblem } from "./form-errors";

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
  it("answers with the server schema's first message, or undefined when it passes", () => {
    expect(schemaProblem(addGroupSchema, { name: "   ", description: "" })).toBe(GROUP_NAME_REQUIRED);
    expect(schemaProblem(addPermissionSchema, { key: "export", description: "" })).toBe(PERMISSION_KEY_RULE);
    expect(schemaProblem(addGroupSchema, { name: "Packers", description: "" })).toBeUndefined();
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
