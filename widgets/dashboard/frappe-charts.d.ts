/** The part of frappe-charts 1.6 the dashboard uses (the package ships no types). */
declare module 'frappe-charts' {
  export interface ChartDataset {
    name?: string;
    values: number[];
    chartType?: 'bar' | 'line';
  }
  export interface ChartData {
    labels: string[];
    datasets: ChartDataset[];
    yMarkers?: { label: string; value: number; options?: { labelPos?: 'left' | 'right' } }[];
  }
  export interface ChartOptions {
    data: ChartData;
    type?: 'bar' | 'line' | 'axis-mixed' | 'pie' | 'percentage' | 'heatmap' | 'donut';
    title?: string;
    height?: number;
    colors?: string[];
    animate?: boolean;
    truncateLegends?: boolean;
    valuesOverPoints?: boolean | number;
    barOptions?: { spaceRatio?: number; stacked?: boolean };
    axisOptions?: {
      xAxisMode?: 'span' | 'tick';
      yAxisMode?: 'span' | 'tick';
      xIsSeries?: boolean | number;
      shortenYAxisNumbers?: boolean | number;
    };
    tooltipOptions?: {
      formatTooltipX?: (label: string) => string;
      formatTooltipY?: (value: number) => string;
    };
  }
  export class Chart {
    constructor(parent: string | HTMLElement, options: ChartOptions);
    update(data: ChartData): void;
    destroy(): void;
    export(): void;
  }
}
