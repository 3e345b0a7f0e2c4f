// Test driver: reads {digamma, mutualInformation, entropy, cases} as JSON on stdin,
// evaluates them with menace_lib/widgets/efe_math.js and prints the results as JSON.
// A case that throws yields {error: message} so the Python side can check rejections.
import * as efe from "../../menace_lib/widgets/efe_math.js";

function attempt(compute) {
  try {
    return compute();
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
}

let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);

const output = {
  digamma: (input.digamma ?? []).map((x) => attempt(() => efe.digamma(x))),
  mutualInformation: (input.mutualInformation ?? []).map((a) => attempt(() => efe.mutualInformation(a))),
  expectedEntropy: (input.expectedEntropy ?? []).map((a) => attempt(() => efe.expectedEntropy(a))),
  cases: (input.cases ?? []).map((c) => attempt(() => efe.explore(c))),
};
process.stdout.write(JSON.stringify(output));
