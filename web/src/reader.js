// The reader's latest values in the calculators the diagrams follow (roofline, matmul, decode),
// kept by the page from their roofline-change events, read by diagrams.js when it redraws.
export const readerState = { roofline: null, matmul: null, decode: null };
