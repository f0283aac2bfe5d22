/** The import step of "Import questions": how many of the questions to send are done, and what stopping does. */
export function ImportingStep({
  id,
  fileName,
  assessmentName,
  done,
  todo,
}: {
  id: string;
  fileName: string;
  assessmentName: string | undefined;
  done: number;
  todo: number;
}) {
  return (
    <div className="import-progress">
      <label htmlFor={`${id}-progress`}>
        Importing {fileName}
        {assessmentName ? ` into “${assessmentName}”` : ''}
      </label>
      <progress id={`${id}-progress`} max={todo} value={done} />
      <p role="status">
        {done} of {todo} done. Each question is created whole: stopping leaves nothing half-made.
      </p>
    </div>
  );
}
