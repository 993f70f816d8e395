// NeMo Gym's CustomerRelationshipManagerTool: search, update, add and delete customers (statuses and products from fixed lists).
import { whereContains } from "../pandas.js";
import { paginate, pySlice } from "../pagination.js";
import { type PyValue, compare, equal, inList, lower, nextId, str, truthy, zfill } from "../python.js";
import type { Row } from "../tables.js";
import { type ToolSpec, arg } from "../tool.js";

const TABLE = "customer_relationship_manager_data";
const STATUSES = ["Qualified", "Won", "Lost", "Lead", "Proposal"];
const PRODUCTS = ["Software", "Hardware", "Services", "Consulting", "Training"];
const SEARCH_TEXT = ["customer_name", "customer_email", "product_interest", "status", "assigned_to_email"] as const;
const SEARCH_DATES = [
  ["last_contact_date_min", "last_contact_date", ">="],
  ["last_contact_date_max", "last_contact_date", "<="],
  ["follow_up_by_min", "follow_up_by", ">="],
  ["follow_up_by_max", "follow_up_by", "<="],
] as const;
const NEW_CUSTOMER = [
  "customer_name",
  "assigned_to_email",
  "status",
  "customer_email",
  "customer_phone",
  "last_contact_date",
  "product_interest",
  "notes",
  "follow_up_by",
] as const;

/** df[df[column] op bound] over str cells: NaN cells drop out, a bound that is not a str raises TypeError. */
const whereCompares = (rows: Row[], column: string, op: ">=" | "<=", bound: PyValue) =>
  rows.filter((row) => {
    const cell = row[column] ?? null;
    return cell !== null && compare(cell, op, bound);
  });

export const CRM_TOOLS: Record<string, ToolSpec> = {
  customer_relationship_manager_search_customers: {
    method: "CustomerRelationshipManagerTool.search_customers",
    description: "Searches for customers based on the given parameters with pagination support.",
    parameters: {
      customer_name: { type: "string", description: "Name of the customer" },
      customer_email: { type: "string", description: "Email address of the customer" },
      product_interest: { type: "string", description: "Product interest of the customer" },
      status: { type: "string", description: "Current status of the customer" },
      assigned_to_email: { type: "string", description: "Email address of the person assigned to the customer" },
      last_contact_date_min: { type: "string", description: "Minimum last contact date. Format: YYYY-MM-DD" },
      last_contact_date_max: { type: "string", description: "Maximum last contact date. Format: YYYY-MM-DD" },
      follow_up_by_min: { type: "string", description: "Minimum follow up date. Format: YYYY-MM-DD" },
      follow_up_by_max: { type: "string", description: "Maximum follow up date. Format: YYYY-MM-DD" },
      page: { type: "integer", description: "Page number of results to return" },
      page_size: { type: "integer", description: "Number of customers per page" },
    },
    required: [],
    run(db, args) {
      let customers = db.rows(TABLE);
      const criteria = [...SEARCH_TEXT, ...SEARCH_DATES.map(([name]) => name)].map((name) => arg(args, name));
      if (!criteria.some(truthy)) return "No search parameters provided. Please provide at least one parameter.";
      // Each given field narrows the rows left by the ones before (a pattern for text, a text comparison for dates).
      for (const column of SEARCH_TEXT) {
        const pattern = arg(args, column);
        if (truthy(pattern)) customers = whereContains(customers, column, pattern);
      }
      for (const [name, column, op] of SEARCH_DATES) {
        const bound = arg(args, name);
        if (truthy(bound)) customers = whereCompares(customers, column, op, bound);
      }
      const page = paginate(customers.length, arg(args, "page", 1), arg(args, "page_size", 5));
      if (customers.length === 0) return "No customers found.";
      return {
        customers: pySlice(customers, page.start, page.end),
        pagination: { total_customers: customers.length, page: page.page, page_size: page.pageSize, total_pages: page.totalPages },
      };
    },
  },
  customer_relationship_manager_update_customer: {
    method: "CustomerRelationshipManagerTool.update_customer",
    description: "Updates a customer record by ID.",
    parameters: {
      customer_id: { type: "string", description: "ID of the customer" },
      field: {
        type: "string",
        description:
          "Field to update. Available fields are: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'",
      },
      new_value: { type: "string", description: "New value for the field" },
    },
    required: ["customer_id", "field", "new_value"],
    run(db, args) {
      const [customerId, field] = [arg(args, "customer_id"), arg(args, "field")];
      let value = arg(args, "new_value");
      if (!truthy(customerId) || !truthy(field) || !truthy(value)) return "Customer ID, field, or new value not provided.";
      if (equal(field, "status") && !inList(value, STATUSES)) {
        return "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'";
      }
      if (equal(field, "product_interest") && !inList(value, PRODUCTS)) {
        return "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'";
      }
      if (inList(field, ["customer_email", "assigned_to_email"])) value = lower(value);
      if (db.find(TABLE, "customer_id", customerId).length === 0) return "Customer not found.";
      if (typeof field !== "string" || !db.columns(TABLE).includes(field)) {
        return "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'";
      }
      db.update(TABLE, "customer_id", customerId, str(field), value);
      return "Customer updated successfully.";
    },
  },
  customer_relationship_manager_add_customer: {
    method: "CustomerRelationshipManagerTool.add_customer",
    description: "Adds a new customer record.",
    parameters: {
      customer_name: { type: "string", description: "Name of the customer" },
      assigned_to_email: { type: "string", description: "Email address of the person assigned to the customer" },
      status: { type: "string", description: "Current status of the customer. One of: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'" },
      customer_email: { type: "string", description: "Email address of the customer" },
      customer_phone: { type: "string", description: "Phone number of the customer" },
      last_contact_date: { type: "string", description: "The last date the customer was contacted. Format: YYYY-MM-DD" },
      product_interest: {
        type: "string",
        description: "Product interest of the customer. One of: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'",
      },
      notes: { type: "string", description: "Notes about the customer" },
      follow_up_by: { type: "string", description: "Date for the next follow up. Format: YYYY-MM-DD" },
    },
    required: ["customer_name", "assigned_to_email", "status"],
    run(db, args) {
      // notes defaults to "", every other field to None; neither the status nor the product is checked here.
      const given = Object.fromEntries(NEW_CUSTOMER.map((name) => [name, arg(args, name, name === "notes" ? "" : null)])) as Record<
        (typeof NEW_CUSTOMER)[number],
        PyValue
      >;
      if (![given.customer_name, given.assigned_to_email, given.status].every(truthy)) {
        return "Please provide all required fields: customer_name, assigned_to_email, status.";
      }
      const assignee = lower(given.assigned_to_email);
      const email = truthy(given.customer_email) ? lower(given.customer_email) : given.customer_email;
      const customerId = zfill(nextId(db.rows(TABLE).map((row) => row.customer_id ?? null)), 8);
      db.append(TABLE, {
        customer_id: customerId,
        customer_name: given.customer_name,
        customer_email: email,
        customer_phone: given.customer_phone,
        last_contact_date: given.last_contact_date,
        product_interest: given.product_interest,
        status: given.status,
        assigned_to_email: assignee,
        notes: given.notes,
        follow_up_by: given.follow_up_by,
      });
      return customerId;
    },
  },
  customer_relationship_manager_delete_customer: {
    method: "CustomerRelationshipManagerTool.delete_customer",
    description: "Deletes a customer record by ID.",
    parameters: { customer_id: { type: "string", description: "ID of the customer" } },
    required: ["customer_id"],
    run(db, args) {
      const customerId = arg(args, "customer_id");
      if (!truthy(customerId)) return "Customer ID not provided.";
      if (db.find(TABLE, "customer_id", customerId).length === 0) return "Customer not found.";
      db.remove(TABLE, "customer_id", customerId);
      return "Customer deleted successfully.";
    },
  },
};
