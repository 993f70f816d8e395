// NeMo Gym's CompanyDirectoryTool: the one read-only lookup, email addresses whose text matches a name.
import { containsIgnoringCase } from "../pandas.js";
import { equal, lower } from "../python.js";
import { type ToolSpec, arg } from "../tool.js";

export const DIRECTORY_TOOLS: Record<string, ToolSpec> = {
  company_directory_find_email_address: {
    method: "CompanyDirectoryTool.find_email_address",
    description: "Finds all email addresses containing the given name (case-insensitive search).",
    parameters: { name: { type: "string", description: "Name or partial name to search for in email addresses" } },
    required: [],
    run(db, args) {
      const name = arg(args, "name", "");
      if (equal(name, "")) return "Name not provided.";
      // The name is a regular expression to pandas (str.contains), lowercased first.
      const matches = containsIgnoringCase(lower(name));
      return db
        .rows("company_directory")
        .map((row) => row.email_address ?? null)
        .filter((address): address is string => typeof address === "string" && matches(address));
    },
  },
};
