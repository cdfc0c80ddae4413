import { z } from "zod";

/** Most names in one exclusion list: a handful of internal accounts, not a customer list. */
export const MAX_EXCLUDED_NAMES = 50;

const Names = z.array(z.string().trim().min(1, "a name must not be empty").max(200))
  .max(MAX_EXCLUDED_NAMES, `at most ${MAX_EXCLUDED_NAMES} names`);

/** Body of PUT /api/dashboard/exclusions: the two lists of spec §6's dashboard exclusions. */
export const DashboardExclusionsInput = z.object({
  excludedAccounts: Names,
  hiddenResellerNames: Names,
});
