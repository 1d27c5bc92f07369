import type { RouterOutputs } from "@/lib/trpc";

// The rows of the admin lists, as the tRPC procedures return them.
export type AdminUser = RouterOutputs["users"]["list"]["users"][number];
export type AdminGroup = RouterOutputs["groups"]["list"]["groups"][number];
export type AdminPermission = RouterOutputs["permissions"]["list"]["permissions"][number];
