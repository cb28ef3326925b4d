/**
 * Starts one in-memory DynamoDB Local for the `api` test project and hands its endpoint to the test files
 * (`inject('dynamodbEndpoint')`). Set DYNAMODB_ENDPOINT to reuse a running one.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../packages/local/src/dynamo';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DYNAMODB_ENDPOINT) {
    project.provide('dynamodbEndpoint', process.env.DYNAMODB_ENDPOINT);
    return;
  }
  const dynamo = await startDynamoLocal({ timeoutMs: 120_000 });
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
