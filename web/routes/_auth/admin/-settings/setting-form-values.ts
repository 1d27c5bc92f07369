import { DEFAULT_GROUP, type Setting, type SettingType, type SettingVisibility, valueAsText } from "./setting-utils";

// docs/product.md §5 "Setting form": what the add/edit dialog holds, what it opens with, and what it sends.

/** The form's fields, named as the inputs (and, where it has them, the call) name them. */
export type SettingValues = {
  key: string;
  type: SettingType;
  value: string;
  confirm_value: string;
  description: string;
  visibility: SettingVisibility;
  group_name: string;
  min_value: string;
  max_value: string;
  deletable: boolean;
};

export function initialValues(setting: Setting | null): SettingValues {
  if (!setting) {
    return {
      key: "",
      type: "string",
      value: "",
      confirm_value: "",
      description: "",
      // A new setting is visible to admins only until chosen otherwise: it may hold a secret.
      visibility: "admin",
      group_name: DEFAULT_GROUP,
      min_value: "",
      max_value: "",
      deletable: true,
    };
  }
  return {
    key: setting.key,
    type: setting.type,
    value: valueAsText(setting),
    confirm_value: "",
    description: setting.description,
    visibility: setting.visibility,
    group_name: setting.group_name || DEFAULT_GROUP,
    min_value: setting.min_value === null ? "" : String(setting.min_value),
    max_value: setting.max_value === null ? "" : String(setting.max_value),
    deletable: setting.deletable,
  };
}

/** The value a field keeps when the type changes. */
export function valueForType(type: SettingType, previous: SettingValues): Pick<SettingValues, "value" | "confirm_value"> {
  if (type === "boolean") return { value: previous.value === "true" ? "true" : "false", confirm_value: "" };
  if (type === "password" || previous.type === "password") return { value: "", confirm_value: "" };
  if (previous.type === "boolean") return { value: "", confirm_value: "" };
  return { value: previous.value, confirm_value: "" };
}

/** What the add and edit calls are sent (docs/product.md §5: every value, json included, as a string). */
export function settingInput(values: SettingValues, editing: boolean) {
  const integer = values.type === "integer";
  return {
    key: values.key.trim(),
    value: values.type === "boolean" ? (values.value === "true" ? "true" : "false") : values.value,
    type: values.type,
    description: values.description.trim(),
    visibility: values.visibility,
    group_name: values.group_name.trim() || DEFAULT_GROUP,
    min_value: integer ? values.min_value.trim() || null : null,
    max_value: integer ? values.max_value.trim() || null : null,
    ...(editing ? {} : { deletable: values.deletable }),
  };
}
