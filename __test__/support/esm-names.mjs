// Prints, as a JSON array, the names `import * as m from <file>` gives in this runtime (its own
// CommonJS export detection, not the test runner's loader).
const m = await import(process.argv[2]);
console.log(JSON.stringify(Object.keys(m)));
