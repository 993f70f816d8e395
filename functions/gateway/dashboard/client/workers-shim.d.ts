// The browser reads the server's contracts for their JSON shapes; the three Workers types they also name never reach it.
type DurableObjectId = {};
type DurableObjectStub = {};
type Fetcher = {};
