// An SQS event record as Lambda's event source mapping builds it from a received message (AWS's documented event shape).
import type { Message } from "@aws-sdk/client-sqs";
import type { SqsEventRecord } from "../../queues/sqs-consumer.js";

/** What Lambda's event source mapping hands the function for messages it received (AWS's documented event shape). */
export function lambdaRecord(message: Message, arn: string): SqsEventRecord & Record<string, unknown> {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    attributes: {
      ApproximateReceiveCount: message.Attributes!.ApproximateReceiveCount!,
      SentTimestamp: message.Attributes!.SentTimestamp!,
      SenderId: "AIDAIENQZJOLO23YVJ4VO",
      ApproximateFirstReceiveTimestamp: message.Attributes!.ApproximateFirstReceiveTimestamp!,
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue, stringListValues: [], binaryListValues: [], dataType: value.DataType! },
      ]),
    ),
    md5OfBody: message.MD5OfBody!,
    eventSource: "aws:sqs",
    eventSourceARN: arn,
    awsRegion: "us-east-1",
  };
}
