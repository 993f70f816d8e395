// NeMo Gym's ProjectManagementTool: look up, search, create, delete and update tasks on the Back end / Front end / Design boards.
import { compilePythonRegex } from "../../sdk/index.js";
import { whereContains } from "../pandas.js";
import { PyError, type PyValue, equal, inList, lower, nextId, str, truthy, typeName, zfill } from "../python.js";
import type { Tables } from "../tables.js";
import { type ToolSpec, arg } from "../tool.js";

const LISTS = ["Backlog", "In Progress", "In Review", "Completed"];
const BOARDS = ["Back end", "Front end", "Design"];
const INVALID_LIST = "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.";
const INVALID_BOARD = "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.";
const INVALID_ASSIGNEE = "Assignee email not valid. Please choose from the list of team members.";
const TASK_FIELDS = ["task_name", "assigned_to_email", "list_name", "due_date", "board"] as const;
/** The pattern search_tasks checks assigned_to_email with (re.match: anchored at the start, `$` also before a final newline). */
const EMAIL_PATTERN = "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$";

/** assigned_to_email in df["assigned_to_email"].str.lower().values: a team member's address. */
const isTeamMember = (db: Tables, email: PyValue) =>
  db.rows("project_tasks").some((row) => {
    const cell = row.assigned_to_email ?? null;
    return typeof cell === "string" && equal(cell.toLowerCase(), email);
  });

function matchesEmailPattern(value: PyValue): boolean {
  if (typeof value !== "string") throw new PyError("TypeError", `expected string or bytes-like object, got '${typeName(value)}'`);
  return compilePythonRegex(EMAIL_PATTERN).regex.test(value);
}

const TASK_PARAMETERS = {
  task_name: { type: "string", description: "Name of the task" },
  assigned_to_email: { type: "string", description: "Email address of the person assigned to the task" },
  list_name: { type: "string", description: "Name of the list the task belongs to" },
  due_date: { type: "string", description: "Due date of the task in YYYY-MM-DD format" },
  board: { type: "string", description: "Name of the board the task belongs to" },
} as const;

export const PROJECT_MANAGEMENT_TOOLS: Record<string, ToolSpec> = {
  project_management_get_task_information_by_id: {
    method: "ProjectManagementTool.get_task_information_by_id",
    description: "Returns the task information for a given ID.",
    parameters: {
      task_id: { type: "string", description: "8-digit ID of the task" },
      field: {
        type: "string",
        description: "Field to return. Available fields are: 'task_id', 'task_name', 'assigned_to_email', 'list_name', 'due_date', 'board'",
      },
    },
    required: ["task_id", "field"],
    run(db, args) {
      const [taskId, field] = [arg(args, "task_id"), arg(args, "field")];
      if (!truthy(taskId)) return "Task ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      const [task] = db.find("project_tasks", "task_id", taskId);
      if (!task) return "Task not found.";
      return typeof field === "string" && Object.hasOwn(task, field) ? { [field]: task[field] } : "Field not found.";
    },
  },
  project_management_search_tasks: {
    method: "ProjectManagementTool.search_tasks",
    description: "Searches for tasks based on the given parameters.",
    parameters: TASK_PARAMETERS,
    required: [],
    run(db, args) {
      const [name, assignee, list, due, board] = TASK_FIELDS.map((k) => arg(args, k)) as PyValue[];
      if (![name, assignee, list, due, board].some(truthy)) return "No search parameters provided.";
      if (truthy(assignee) && !matchesEmailPattern(assignee!)) return "Invalid email format for assigned_to_email.";
      let tasks = db.rows("project_tasks");
      if (truthy(name)) tasks = whereContains(tasks, "task_name", name!);
      if (truthy(assignee)) {
        // Exact (case-insensitive) match here, where the other fields are searched as patterns.
        const wanted = lower(assignee!);
        tasks = tasks.filter((task) => typeof task.assigned_to_email === "string" && task.assigned_to_email.toLowerCase() === wanted);
      }
      if (truthy(list)) tasks = whereContains(tasks, "list_name", list!);
      if (truthy(due)) tasks = whereContains(tasks, "due_date", due!);
      if (truthy(board)) tasks = whereContains(tasks, "board", board!);
      return tasks;
    },
  },
  project_management_create_task: {
    method: "ProjectManagementTool.create_task",
    description: "Creates a new task.",
    parameters: {
      ...TASK_PARAMETERS,
      list_name: { type: "string", description: "Name of the list the task belongs to. One of: 'Backlog', 'In Progress', 'In Review', 'Completed'" },
      board: { type: "string", description: "Name of the board the task belongs to. One of: 'Back end', 'Front end', 'Design'" },
    },
    required: ["task_name", "assigned_to_email", "list_name", "due_date", "board"],
    run(db, args) {
      const [name, assignee, list, due, board] = TASK_FIELDS.map((k) => arg(args, k)) as PyValue[];
      if (![name, assignee, list, due, board].every(truthy)) return "Missing task details.";
      const email = lower(assignee!);
      if (!isTeamMember(db, email)) return INVALID_ASSIGNEE;
      if (!inList(list!, LISTS)) return INVALID_LIST;
      if (!inList(board!, BOARDS)) return INVALID_BOARD;
      const taskId = zfill(nextId(db.rows("project_tasks").map((row) => row.task_id ?? null)), 8);
      db.append("project_tasks", { task_id: taskId, task_name: name!, assigned_to_email: email, list_name: list!, due_date: due!, board: board! });
      return taskId;
    },
  },
  project_management_delete_task: {
    method: "ProjectManagementTool.delete_task",
    description: "Deletes a task by ID.",
    parameters: { task_id: { type: "string", description: "8-digit ID of the task" } },
    required: ["task_id"],
    run(db, args) {
      const taskId = arg(args, "task_id");
      if (!truthy(taskId)) return "Task ID not provided.";
      if (db.find("project_tasks", "task_id", taskId).length === 0) return "Task not found.";
      db.remove("project_tasks", "task_id", taskId);
      return "Task deleted successfully.";
    },
  },
  project_management_update_task: {
    method: "ProjectManagementTool.update_task",
    description: "Updates a task by ID.",
    parameters: {
      task_id: { type: "string", description: "8-digit ID of the task" },
      field: { type: "string", description: "Field to update. Available fields are: 'task_name', 'assigned_to_email', 'list_name', 'due_date', 'board'" },
      new_value: { type: "string", description: "New value for the field" },
    },
    required: ["task_id", "field", "new_value"],
    run(db, args) {
      const [taskId, field] = [arg(args, "task_id"), arg(args, "field")];
      let value = arg(args, "new_value");
      if (!truthy(taskId) || !truthy(field) || !truthy(value)) return "Task ID, field, or new value not provided.";
      if (equal(field, "assigned_to_email")) value = lower(value);
      if (equal(field, "board") && !inList(value, BOARDS)) return INVALID_BOARD;
      if (equal(field, "list_name") && !inList(value, LISTS)) return INVALID_LIST;
      if (equal(field, "assigned_to_email") && !isTeamMember(db, value)) return INVALID_ASSIGNEE;
      if (db.find("project_tasks", "task_id", taskId).length === 0) return "Task not found.";
      // Any column may be set, task_id included, as NeMo Gym's `field in df.columns` allows.
      if (typeof field !== "string" || !db.columns("project_tasks").includes(field)) return "Field not valid.";
      db.update("project_tasks", "task_id", taskId, str(field), value);
      return "Task updated successfully.";
    },
  },
};
