import { countryChoices, type Treatment, treatmentChoices, treatments } from '../../../../contracts/origin';
import { SelectField } from '../../../components/ui/select-field';

const countries = countryChoices();
const countryLabels = Object.fromEntries(countries.map((country) => [country.code, country.name]));

interface OriginFieldsProps {
  values: { originCountry: string; treatment: Treatment | '' };
  errors: Record<string, string | undefined>;
  onChange: (next: { originCountry?: string; treatment?: Treatment | '' }) => void;
  /** The empty choice: "As the product says" for a batch, "Choose a country" where one must be chosen. */
  placeholders?: { country: string; treatment: string };
}

/** Where fruit was grown and how treated: a product's, or a batch's starting from its product's. */
export function OriginFields({ values, errors, onChange, placeholders = { country: 'As the product says', treatment: 'As the product says' } }: OriginFieldsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Country of origin"
        placeholder={placeholders.country}
        options={countries.map((country) => country.code)}
        labels={countryLabels}
        value={values.originCountry}
        onChange={(event) => onChange({ originCountry: event.target.value })}
        error={errors.originCountry}
      />
      <SelectField
        label="Treatment after harvest"
        placeholder={placeholders.treatment}
        options={treatments}
        labels={treatmentChoices}
        value={values.treatment}
        onChange={(event) => onChange({ treatment: event.target.value as Treatment | '' })}
        error={errors.treatment}
      />
    </div>
  );
}
